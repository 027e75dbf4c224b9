import { beforeEach, describe, expect, it } from "vitest";
import {
  CACHE_MAX_ENTRIES,
  CACHE_TTL_MS,
  cacheGeneration,
  forgetAll,
  forgetConnection,
  forgetReader,
  type Reader,
  recallReader,
  recallToken,
  rememberReader,
  rememberToken,
} from "./connection-cache";
import type { ConnectionRow } from "./tokens";

const NOW = 1_800_000_000_000;
const FAR = NOW + 86_400_000;

const reader = (userId: string, connectionId: string): Reader => ({
  userId,
  connection: { id: connectionId, ownerId: userId } as ConnectionRow,
});

function remember(key: string, r: Reader, expiresAtMs = FAR, nowMs = NOW) {
  rememberReader(key, r, cacheGeneration(), expiresAtMs, nowMs);
}

beforeEach(() => forgetAll());

describe("readers: a session's user and connection, held briefly under the session's own key", () => {
  it("answers for its own key only, until the TTL or the session's end, whichever is first", () => {
    remember("session-a", reader("user-a", "conn-a"));
    remember("session-b", reader("user-b", "conn-b"), NOW + 1_000);
    expect(recallReader("session-a", NOW)?.userId).toBe("user-a");
    expect(recallReader("session-b", NOW)?.userId).toBe("user-b");
    expect(recallReader("session-c", NOW)).toBeNull();
    expect(recallReader("session-b", NOW + 1_000)).toBeNull();
    expect(recallReader("session-a", NOW + CACHE_TTL_MS - 1)?.userId).toBe("user-a");
    expect(recallReader("session-a", NOW + CACHE_TTL_MS)).toBeNull();
  });

  it("sign-out forgets that session, not another of the same user", () => {
    remember("session-a", reader("user-a", "conn-a"));
    remember("session-a2", reader("user-a", "conn-a"));
    forgetReader("session-a");
    expect(recallReader("session-a", NOW)).toBeNull();
    expect(recallReader("session-a2", NOW)?.userId).toBe("user-a");
  });

  it("a change to a connection forgets every session reading through it, and nothing else", () => {
    remember("session-a", reader("user-a", "conn-a"));
    remember("session-a2", reader("user-a", "conn-a"));
    remember("session-b", reader("user-b", "conn-b"));
    forgetConnection("conn-a");
    expect(recallReader("session-a", NOW)).toBeNull();
    expect(recallReader("session-a2", NOW)).toBeNull();
    expect(recallReader("session-b", NOW)?.userId).toBe("user-b");
  });

  it("what a lookup read before a forget is not held (it may be the row just replaced)", () => {
    const before = cacheGeneration();
    forgetConnection("conn-a");
    rememberReader("session-a", reader("user-a", "conn-a"), before, FAR, NOW);
    expect(recallReader("session-a", NOW)).toBeNull();
  });

  it(`holds at most ${CACHE_MAX_ENTRIES} sessions, dropping the oldest`, () => {
    for (let i = 0; i <= CACHE_MAX_ENTRIES; i++) remember(`session-${i}`, reader(`user-${i}`, `conn-${i}`));
    expect(recallReader("session-0", NOW)).toBeNull();
    expect(recallReader("session-1", NOW)?.userId).toBe("user-1");
    expect(recallReader(`session-${CACHE_MAX_ENTRIES}`, NOW)?.userId).toBe(`user-${CACHE_MAX_ENTRIES}`);
  });
});

describe("tokens: a connection's access token in clear", () => {
  it("only while the stored ciphertext is the one decrypted, and within the TTL", () => {
    rememberToken("conn-a", "cipher-1", "token-1", NOW);
    expect(recallToken("conn-a", "cipher-1", NOW)).toBe("token-1");
    // Refreshed: the row now holds another ciphertext.
    expect(recallToken("conn-a", "cipher-2", NOW)).toBeNull();
    expect(recallToken("conn-b", "cipher-1", NOW)).toBeNull();
    expect(recallToken("conn-a", "cipher-1", NOW + CACHE_TTL_MS)).toBeNull();
  });

  it("is forgotten with its connection", () => {
    rememberToken("conn-a", "cipher-1", "token-1", NOW);
    rememberToken("conn-b", "cipher-b", "token-b", NOW);
    forgetConnection("conn-a");
    expect(recallToken("conn-a", "cipher-1", NOW)).toBeNull();
    expect(recallToken("conn-b", "cipher-b", NOW)).toBe("token-b");
  });
});
