export * from "./client";
export * from "./sandbox";
