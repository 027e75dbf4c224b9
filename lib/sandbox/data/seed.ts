import type { SandboxUser } from "../users";
import { hashString } from "./random";

const seeds = new Map<string, number>();

/** The root of all of a user's randomness: a hash of the username (stable across processes). */
export function seedOf(user: SandboxUser): number {
  let s = seeds.get(user.username);
  if (s === undefined) {
    s = hashString(`sandbox:${user.username}`);
    seeds.set(user.username, s);
  }
  return s;
}
