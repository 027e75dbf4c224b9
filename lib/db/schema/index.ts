export * from "./auth";
export * from "./client";
export * from "./clinic";
export * from "./clinic-day";
export * from "./preferences";
export * from "./sandbox";
export * from "./statistics-windows";
export * from "./synced";
