import "server-only";
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Clinicians' passwords, hashed with scrypt (memory-hard: a stolen table is slow to guess at).
 * The stored string names its parameters (`scrypt$N=32768,r=8,p=1$salt$hash`, base64url), so
 * they can be raised later without locking anyone out: an old hash still verifies with its own.
 */

const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

function derive(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is exactly that at N=2^15, r=8.
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, PARAMS);
  const { N, r, p } = PARAMS;
  return `scrypt$N=${N},r=${r},p=${p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

const FORMAT = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** Parameters we accept from a stored hash: a corrupted row must not make us allocate gigabytes. */
function parse(stored: string) {
  const m = FORMAT.exec(stored);
  if (!m) return null;
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const powerOfTwo = N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N < 2 ** 14 || N > 2 ** 20 || r < 1 || r > 32 || p < 1 || p > 16) return null;
  return {
    params: { N, r, p },
    salt: Buffer.from(m[4] ?? "", "base64url"),
    key: Buffer.from(m[5] ?? "", "base64url"),
  };
}

/** True when the password matches; the comparison takes the same time wherever the bytes differ. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed || parsed.key.length === 0) return false;
  const key = await derive(password, parsed.salt, parsed.params);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

let dummy: Promise<string> | undefined;

/**
 * A hash of a random password, made once per process: a sign-in with an unknown email verifies
 * against it, so it takes as long as a wrong password and the answer does not tell which it was.
 */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString("base64url"));
  return dummy;
}
