"use server";
import { signOut } from "./index";

/** Ends the dashboard session (next-auth deletes it); the CGM connection stays for next time. */
export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/" });
}
