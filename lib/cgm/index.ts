export * from "./datetime";
export * from "./schemas";
export * from "./schemas-v3";
export * from "./trend";
export * from "./units";
export * from "./v3-read";
export * from "./values";
export * from "./window-bounds";
