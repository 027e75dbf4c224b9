import "server-only";
import NextAuth from "next-auth";
import { localSecrets } from "@/lib/platform/config/local-secrets";
import { env } from "@/lib/platform/env";
import { adapter } from "./adapter";
import { sessionCookie } from "./cookies";

/**
 * next-auth decides who is signed in: it reads the opaque session cookie, looks the session up in
 * the database (adapter.ts), renews it as it is used and ends it at sign-out. It never sees the
 * service's tokens: the sign-in with the service is our own route (lib/auth/sign-in.ts), because
 * next-auth's own OAuth flow would exchange the code outside our token module and its refresh
 * pattern loses single-use refresh tokens (see README, "How sign-in works").
 */

export const SESSION_MAX_AGE_S = 7 * 24 * 3600;
const SESSION_UPDATE_AGE_S = 24 * 3600;

export const { auth, handlers, signOut } = NextAuth(() => {
  const e = env();
  const cookie = sessionCookie();
  return {
    adapter,
    providers: [],
    secret: e.AUTH_SECRET ?? localSecrets().authSecret,
    trustHost: true,
    useSecureCookies: cookie.options.secure,
    session: { strategy: "database", maxAge: SESSION_MAX_AGE_S, updateAge: SESSION_UPDATE_AGE_S },
    cookies: { sessionToken: cookie },
    pages: { signIn: "/", error: "/auth/error" },
    callbacks: {
      session({ session, user }) {
        return { ...session, user: { ...session.user, id: user.id } };
      },
    },
    logger: {
      // next-auth's errors can carry request details; log the kind only.
      error: (error) => console.error(`auth: ${error.name}`),
    },
  };
});

/** The signed-in user's id, or null. */
export async function currentUserId(): Promise<string | null> {
  const session = await auth();
  return session?.user?.id ?? null;
}
