import { describe, expect, it, vi } from "vitest";

/** The cookies' names and flags follow APP_URL: `__Host-` and Secure over https only. */
async function cookiesFor(appUrl: string) {
  vi.resetModules();
  vi.stubEnv("APP_URL", appUrl);
  return import("./cookies");
}

describe("cookies", () => {
  it("over https: __Host- prefix, Secure, HttpOnly, SameSite=Lax, whole site", async () => {
    const { sessionCookie, signInStateCookie } = await cookiesFor("https://dashboard.example");
    for (const cookie of [sessionCookie(), signInStateCookie()]) {
      expect(cookie.name.startsWith("__Host-")).toBe(true);
      expect(cookie.options).toEqual({ httpOnly: true, sameSite: "lax", path: "/", secure: true });
    }
  });

  it("on http://localhost (development): no prefix and no Secure, which the browser would refuse", async () => {
    const { sessionCookie } = await cookiesFor("http://localhost:3000");
    expect(sessionCookie().name).toBe("glucose.session");
    expect(sessionCookie().options.secure).toBe(false);
  });
});
