export * from "./constants";
export * from "./descriptive";
export * from "./gmi";
export * from "./gri";
export * from "./quantiles";
export * from "./risk-index";
export * from "./summary";
export * from "./time-in-ranges";
