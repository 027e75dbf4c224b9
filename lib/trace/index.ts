export * from "./clock";
export * from "./days";
export * from "./format";
export * from "./freshness";
export * from "./gaps";
export * from "./points";
export * from "./reduce";
export * from "./table";
