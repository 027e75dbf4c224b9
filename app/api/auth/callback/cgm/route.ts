import type { NextRequest } from "next/server";
import { errorResponse } from "@/lib/api/errors";
import { finishSignIn } from "@/lib/auth/routes";

export const dynamic = "force-dynamic";
export const GET = (req: NextRequest) => finishSignIn(req).catch(errorResponse);
