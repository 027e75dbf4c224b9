import "server-only";
import type { NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { currentUserId } from "@/lib/auth";
import { adapter } from "@/lib/auth/adapter";
import { sessionCookie, signInStateCookie } from "@/lib/auth/cookies";
import { safeReturnTo } from "@/lib/auth/return-to";
import { attemptTtlMs, beginSignIn, completeSignIn } from "@/lib/auth/sign-in";
import { seeOther } from "@/lib/http/redirect";
import { connectionOfOwner, deleteConnection } from "@/lib/service-client/tokens";
import { forgetFinishedDays } from "@/lib/sync/source";
import { anyone, formRoute, signedIn } from "./route";

/**
 * What the sign-in, callback and disconnect routes do: the HTTP side (cookies, redirects) of the
 * flow in lib/auth/sign-in.ts, kept at the edge so the route files stay one line and auth never
 * depends on the routes that call it.
 */

/** POST /api/auth/cgm/start: a new attempt, its state cookie, and off to the service. */
export const startSignIn = formRoute(
  // Where to go afterwards is checked by the sign-in itself, here and again where it is followed.
  { schema: z.object({ returnTo: z.string().optional() }), user: anyone },
  async ({ form, user }) => {
    const { url, state } = await beginSignIn({ returnTo: form.returnTo, userId: user });
    const cookie = signInStateCookie();
    const response = seeOther(url);
    response.cookies.set(cookie.name, state, {
      ...cookie.options,
      maxAge: Math.floor(attemptTtlMs() / 1000),
    });
    return response;
  },
);

/**
 * GET /api/auth/callback/cgm: the service's redirect. Whatever happens, the state cookie is gone
 * afterwards and the browser is sent on at once to a URL without the code; no-referrer keeps the
 * code out of the Referer of anything this response leads to.
 */
export async function finishSignIn(req: NextRequest): Promise<NextResponse> {
  const stateCookie = signInStateCookie();
  const session = sessionCookie();
  const oldSession = req.cookies.get(session.name)?.value;
  const result = await completeSignIn(
    new URL(req.url),
    req.cookies.get(stateCookie.name)?.value,
    await currentUserId(),
  );
  const headers = { "Referrer-Policy": "no-referrer" };
  // Checked again where it is followed: an attempt stored before a stricter rule still obeys it.
  const response = result.ok
    ? seeOther(safeReturnTo(result.returnTo), headers)
    : seeOther(`/auth/error?reason=${result.reason}`, headers);
  response.cookies.set(stateCookie.name, "", { ...stateCookie.options, maxAge: 0 });
  if (result.ok) {
    // A sign-in always gets a new session id; the one this browser had (if any) ends here.
    if (oldSession) await adapter.deleteSession(oldSession);
    const maxAge = Math.floor((result.expires.getTime() - Date.now()) / 1000);
    response.cookies.set(session.name, result.sessionToken, { ...session.options, maxAge });
  }
  return response;
}

/** POST /api/connection/disconnect: the patient's tokens are deleted; they stay signed in. */
export const disconnect = formRoute(
  { schema: z.object({}), user: signedIn(() => seeOther("/")) },
  async ({ user }) => {
    const connection = await connectionOfOwner(user);
    if (connection) {
      await deleteConnection(connection.id);
      // This process's copy of its finished days goes with it (another process's is never read
      // again: a connection made later has another id, and a reconnect another generation).
      forgetFinishedDays(connection.id);
    }
    return seeOther("/dashboard");
  },
);
