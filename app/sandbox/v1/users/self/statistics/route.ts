import { dataRoute } from "@/lib/sandbox/http";
import { statisticsEndpoint } from "@/lib/sandbox/statistics-endpoint";

export const dynamic = "force-dynamic";
export const POST = dataRoute({ version: "v1", windowed: true }, (ctx) => statisticsEndpoint("v1", ctx));
