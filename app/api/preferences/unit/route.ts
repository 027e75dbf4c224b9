import { saveUnitForm } from "@/lib/api/dashboard";

export const dynamic = "force-dynamic";
export const POST = saveUnitForm;
