export * from "./datetime";
export * from "./schemas";
export * from "./trend";
export * from "./units";
export * from "./values";
export * from "./window-bounds";
