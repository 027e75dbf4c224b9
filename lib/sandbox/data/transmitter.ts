import { sha256Hex } from "@/lib/platform/security/hash";
import type { SandboxUser } from "../users";
import { mix, PURPOSE } from "./random";
import { seedOf } from "./seed";
import { sensorInsertedMs, sensorNumberAt } from "./sessions";

/**
 * The transmitter behind a v3 record (service-v3-notes §3.1, §5 item 3).
 *
 * - A transmitter serves `device.sessionsPerTransmitter` sensors: G7, G7 15-day and ONE+ sensors
 *   each carry their own, a G6 one serves 9 sensors (90 days), G5 12 and G4 26. It starts when its
 *   first sensor goes in; `transmitterTicks` counts seconds from then.
 * - `transmitterId` is what the service sends instead of the printed serial: an opaque 64-hex hash.
 *   Here SHA-256 of the user and a serial derived from the user's seed, so it is stable for the
 *   transmitter's life, the same for every client app, and reveals no serial.
 */

export interface Transmitter {
  /** Counts the user's transmitters from 0. */
  index: number;
  startMs: number;
  id: string;
}

const SERIAL_ALPHABET = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ";
const ids = new Map<string, string>();

/** The printed serial of the user's transmitter number `index` (never served). */
export function transmitterSerial(user: SandboxUser, index: number): string {
  let h = mix(seedOf(user), PURPOSE.transmitter, index);
  let serial = user.device.serialPrefix;
  while (serial.length < 6) {
    serial += SERIAL_ALPHABET[h % SERIAL_ALPHABET.length];
    h = Math.floor(h / SERIAL_ALPHABET.length);
  }
  return serial;
}

function transmitterId(user: SandboxUser, index: number): string {
  const key = `${user.username}#${index}`;
  let id = ids.get(key);
  if (id === undefined) {
    id = sha256Hex(`${user.username}:${transmitterSerial(user, index)}`);
    if (ids.size > 10_000) ids.clear();
    ids.set(key, id);
  }
  return id;
}

/** The transmitter in use at `systemMs` (the sensor in use then decides). */
export function transmitterAt(user: SandboxUser, systemMs: number): Transmitter {
  const per = user.device.sessionsPerTransmitter;
  const index = Math.floor(sensorNumberAt(user, systemMs) / per);
  return { index, startMs: sensorInsertedMs(user, index * per), id: transmitterId(user, index) };
}

/** Seconds since the transmitter started (0 for a record logged before its first sensor went in). */
export function transmitterTicks(t: Transmitter, systemMs: number): number {
  return Math.max(0, Math.floor((systemMs - t.startMs) / 1000));
}
