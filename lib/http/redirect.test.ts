import { describe, expect, it } from "vitest";
import { INPUT_LIMITS, InputRefused } from "./input";
import { found, seeOther } from "./redirect";

describe("seeOther and found", () => {
  it("answer 303 or 302 to the location, never stored, with the headers given", () => {
    const see = seeOther("/dashboard?saved=1", { "Set-Cookie": "a=b" });
    expect(see.status).toBe(303);
    expect(see.headers.get("location")).toBe("/dashboard?saved=1");
    expect(see.headers.get("cache-control")).toBe("no-store");
    expect(see.headers.get("set-cookie")).toBe("a=b");
    const back = found("https://client.example/cb?code=x");
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe("https://client.example/cb?code=x");
    expect(back.headers.get("cache-control")).toBe("no-store");
  });

  it("refuse a location too long for the proxies in front of us", () => {
    const long = `/clinic?error=${"x".repeat(INPUT_LIMITS.url)}`;
    expect(() => seeOther(long)).toThrow(InputRefused);
    expect(() => found(long)).toThrow(InputRefused);
    expect(seeOther("/".padEnd(INPUT_LIMITS.url, "x")).status).toBe(303);
  });
});
