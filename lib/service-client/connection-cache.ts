import "server-only";
import type { ConnectionRow } from "./tokens";

/**
 * A brief, per-process memory of what every /api/cgm request would otherwise read again: which
 * user and connection a session reads through (one database round trip), and a connection's
 * access token decrypted. Both are held for at most CACHE_TTL_MS and forgotten at once when they
 * change in this process: a refresh, a reconnect or a new sign-in, a disconnect, the service
 * answering 401, the connection marked needs_reconnect, a sign-out. Another process (several on
 * one PostgreSQL) learns of such a change when its entry expires; a token refreshed there answers
 * 401 here sooner, and a 401 always goes to the database.
 *
 * A reader is keyed by the caller's own key (the hash of the session's token), so one session's
 * entry is never another's; a token by its connection, and used only while the row in hand still
 * holds the same ciphertext.
 */

export const CACHE_TTL_MS = 10_000;
/** Entries per map: past it the oldest goes (Map keeps insertion order). */
export const CACHE_MAX_ENTRIES = 1_000;

export interface Reader {
  userId: string;
  connection: ConnectionRow;
}

interface Held<T> {
  value: T;
  untilMs: number;
}

interface Memory {
  readers: Map<string, Held<Reader>>;
  tokens: Map<string, Held<{ ciphertext: string; token: string }>>;
  /** Bumped by every forget, so a lookup that started before one does not store what it read. */
  generation: number;
}

declare global {
  // One memory per process: Next bundles this module once per layer (route handlers, pages and
  // server actions), and a sign-out in a server action must reach the route handlers' copy.
  var __cgmConnectionCache: Memory | undefined;
}

function memory(): Memory {
  globalThis.__cgmConnectionCache ??= { readers: new Map(), tokens: new Map(), generation: 0 };
  return globalThis.__cgmConnectionCache;
}

function recall<T>(map: Map<string, Held<T>>, key: string, nowMs: number): T | null {
  const held = map.get(key);
  if (!held) return null;
  if (held.untilMs > nowMs) return held.value;
  map.delete(key);
  return null;
}

function hold<T>(map: Map<string, Held<T>>, key: string, value: T, untilMs: number): void {
  map.delete(key);
  map.set(key, { value, untilMs });
  while (map.size > CACHE_MAX_ENTRIES) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) break;
    map.delete(oldest);
  }
}

/** Marks the start of a lookup: pass it to rememberReader with what the lookup found. */
export const cacheGeneration = (): number => memory().generation;

export function recallReader(key: string, nowMs = Date.now()): Reader | null {
  return recall(memory().readers, key, nowMs);
}

/**
 * Holds what a lookup started at `generation` found, unless something was forgotten meanwhile (it
 * may have read the row just before a disconnect or a refresh). Never past `expiresAtMs`, the
 * session's own end.
 */
export function rememberReader(
  key: string,
  reader: Reader,
  generation: number,
  expiresAtMs: number,
  nowMs = Date.now(),
): void {
  const m = memory();
  if (generation !== m.generation) return;
  hold(m.readers, key, reader, Math.min(nowMs + CACHE_TTL_MS, expiresAtMs));
}

/** The connection's access token in clear, while `ciphertext` is still the one decrypted. */
export function recallToken(connectionId: string, ciphertext: string, nowMs = Date.now()): string | null {
  const held = recall(memory().tokens, connectionId, nowMs);
  return held && held.ciphertext === ciphertext ? held.token : null;
}

export function rememberToken(
  connectionId: string,
  ciphertext: string,
  token: string,
  nowMs = Date.now(),
): void {
  hold(memory().tokens, connectionId, { ciphertext, token }, nowMs + CACHE_TTL_MS);
}

function forgetReadersWhere(m: Memory, matches: (reader: Reader) => boolean): void {
  for (const [key, held] of m.readers) if (matches(held.value)) m.readers.delete(key);
}

/** A session ended (sign-out, or replaced by a new sign-in). */
export function forgetReader(key: string): void {
  const m = memory();
  m.generation++;
  m.readers.delete(key);
}

/** The connection's tokens or status changed, or it is gone: every session reading through it, and its token. */
export function forgetConnection(connectionId: string): void {
  const m = memory();
  m.generation++;
  m.tokens.delete(connectionId);
  forgetReadersWhere(m, (r) => r.connection.id === connectionId);
}

/**
 * Everything: after a sign-in, which may give a user a connection, replace one, or move sessions
 * from one account to another (rare enough that every session reading again once costs nothing).
 */
export function forgetAll(): void {
  const m = memory();
  m.generation++;
  m.readers.clear();
  m.tokens.clear();
}
