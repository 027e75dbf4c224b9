import { MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE } from "@/lib/cgm/datetime";
import type { SandboxUser } from "../users";
import { HISTORY_START_MS, READING_INTERVAL_MS, READINGS_PER_DAY, WARMUP_MS } from "./constants";
import { mix, PURPOSE, Rng } from "./random";
import { seedOf } from "./seed";

/**
 * When a sensor delivers readings.
 *
 * - Continuous wear: sessions of `sessionDays` follow each other from a fixed first insertion.
 *   A session's readings run from insertion + warm-up to insertion + warm-up + sessionDays
 *   (inclusive); the next sensor goes in at that moment, so across a session change consecutive
 *   readings are exactly WARMUP_MS (2 h) apart.
 * - Scattered wear (User5): the time axis is cut into 10-day blocks; in each block the sensor is
 *   worn once, 2 to 3 days (warm-up included), wholly inside the block. A calendar day needs 16 h
 *   of readings for 66% utilization, so a block yields at most 3 such days: any 19 consecutive
 *   days touch at most 3 blocks (≤ 9 days, below the 12 of spec 2.6) and any N ≥ 20 days at most
 *   floor((N−1)/10)+2 blocks, always < 60% of N. The minimum-data rule can never be met.
 * - Signal loss: per UTC day 0–2 gaps (mean ~0.55/day, a few per week) of 2–17 missing readings
 *   (15–90 min between the readings either side). Gaps keep clear of the first 20 minutes and the
 *   last 2 hours of a session, so warm-up and signal loss never add up to a long silence.
 */

export interface Session {
  /** systemMs of the first and last reading (both on the grid). */
  firstMs: number;
  lastMs: number;
  /** Sensor insertion: firstMs − WARMUP_MS. */
  insertedMs: number;
}

const SCATTER_BLOCK_MS = 10 * MS_PER_DAY;

function firstInsertionMs(user: SandboxUser): number {
  return (
    HISTORY_START_MS + user.sensor.gridOffsetSeconds * 1000 + user.sensor.firstInsertionMin * MS_PER_MINUTE
  );
}

function continuousPeriodMs(user: SandboxUser): number {
  return user.sensor.sessionDays * MS_PER_DAY + WARMUP_MS;
}

function scatteredSession(user: SandboxUser, block: number): Session {
  const blockStart = firstInsertionMs(user) + block * SCATTER_BLOCK_MS;
  const rng = new Rng(mix(seedOf(user), PURPOSE.wear, block));
  const steps = (ms: number) => Math.round(ms / READING_INTERVAL_MS) * READING_INTERVAL_MS;
  const wornMs = steps(rng.between(2 * MS_PER_DAY, 3 * MS_PER_DAY));
  const startMs = blockStart + steps(rng.next() * (SCATTER_BLOCK_MS - wornMs - MS_PER_HOUR));
  return { insertedMs: startMs, firstMs: startMs + WARMUP_MS, lastMs: startMs + wornMs };
}

/** The session whose readings span `systemMs` (warm-up excluded), or null. */
export function sessionAt(user: SandboxUser, systemMs: number): Session | null {
  if (!user.hasData) return null;
  const origin = firstInsertionMs(user);
  if (systemMs < origin) return null;
  if (user.sensor.wear === "scattered") {
    const s = scatteredSession(user, Math.floor((systemMs - origin) / SCATTER_BLOCK_MS));
    return systemMs >= s.firstMs && systemMs <= s.lastMs ? s : null;
  }
  const period = continuousPeriodMs(user);
  const k = Math.floor((systemMs - origin) / period);
  const insertedMs = origin + k * period;
  const firstMs = insertedMs + WARMUP_MS;
  const lastMs = firstMs + user.sensor.sessionDays * MS_PER_DAY;
  if (systemMs >= firstMs && systemMs <= lastMs) return { insertedMs, firstMs, lastMs };
  // The warm-up of session k lies at the end of period k−1's slot: the previous session ends at insertion.
  const prevFirst = firstMs - period;
  if (k > 0 && systemMs <= prevFirst + user.sensor.sessionDays * MS_PER_DAY && systemMs >= prevFirst)
    return {
      insertedMs: insertedMs - period,
      firstMs: prevFirst,
      lastMs: prevFirst + user.sensor.sessionDays * MS_PER_DAY,
    };
  return null;
}

/** Sessions whose readings intersect [fromMs, toMs], ascending. */
export function sessionsBetween(user: SandboxUser, fromMs: number, toMs: number): Session[] {
  if (!user.hasData) return [];
  const origin = firstInsertionMs(user);
  const out: Session[] = [];
  if (user.sensor.wear === "scattered") {
    const b0 = Math.max(0, Math.floor((fromMs - origin) / SCATTER_BLOCK_MS));
    for (let b = b0; origin + b * SCATTER_BLOCK_MS <= toMs; b++) {
      const s = scatteredSession(user, b);
      if (s.lastMs >= fromMs && s.firstMs <= toMs) out.push(s);
    }
    return out;
  }
  const period = continuousPeriodMs(user);
  const k0 = Math.max(0, Math.floor((fromMs - origin) / period) - 1);
  for (let k = k0; origin + k * period <= toMs; k++) {
    const firstMs = origin + k * period + WARMUP_MS;
    const s = {
      insertedMs: firstMs - WARMUP_MS,
      firstMs,
      lastMs: firstMs + user.sensor.sessionDays * MS_PER_DAY,
    };
    if (s.lastMs >= fromMs && s.firstMs <= toMs) out.push(s);
  }
  return out;
}

/** Signal-loss gaps planned for UTC day `day`: [fromMs, toMs] ranges of missing readings. */
export function gapsOfDay(user: SandboxUser, day: number): Array<[number, number]> {
  if (!user.hasData) return [];
  const rng = new Rng(mix(seedOf(user), PURPOSE.gaps, day));
  const r = rng.next();
  const n = r < 0.55 ? 0 : r < 0.9 ? 1 : 2;
  const gridStart = day * MS_PER_DAY + user.sensor.gridOffsetSeconds * 1000;
  const out: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    const slot = rng.int(0, READINGS_PER_DAY - 1);
    const missing = rng.int(2, 17);
    const fromMs = gridStart + (slot + 1) * READING_INTERVAL_MS;
    const toMs = fromMs + (missing - 1) * READING_INTERVAL_MS;
    const s = sessionAt(user, fromMs) ?? sessionAt(user, toMs);
    if (s && (fromMs < s.firstMs + 20 * MS_PER_MINUTE || toMs > s.lastMs - 2 * MS_PER_HOUR)) continue;
    out.push([fromMs, toMs]);
  }
  return out;
}

/**
 * The sensor in use at `systemMs`: the last one inserted at or before it (its number counts the
 * user's sensors from 0), or the first one before the first insertion. During a warm-up the new
 * sensor is in use; between scattered sessions, the last one worn.
 */
export function sensorNumberAt(user: SandboxUser, systemMs: number): number {
  const origin = firstInsertionMs(user);
  if (user.sensor.wear === "scattered") {
    const b = Math.max(0, Math.floor((systemMs - origin) / SCATTER_BLOCK_MS));
    return b > 0 && systemMs < scatteredSession(user, b).insertedMs ? b - 1 : b;
  }
  return Math.max(0, Math.floor((systemMs - origin) / continuousPeriodMs(user)));
}

/** When sensor number `n` (see sensorNumberAt) was inserted. */
export function sensorInsertedMs(user: SandboxUser, n: number): number {
  const origin = firstInsertionMs(user);
  return user.sensor.wear === "scattered"
    ? scatteredSession(user, n).insertedMs
    : origin + n * continuousPeriodMs(user);
}
