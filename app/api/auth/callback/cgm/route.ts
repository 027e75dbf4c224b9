import type { NextRequest } from "next/server";
import { finishSignIn } from "@/lib/api/auth-routes";
import { errorResponse } from "@/lib/api/errors";

export const dynamic = "force-dynamic";
export const GET = (req: NextRequest) => finishSignIn(req).catch(errorResponse);
