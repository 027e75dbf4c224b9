export interface ClockChange {
  /** systemTime (epoch ms) of the first reading on the new offset. */
  t: number;
  fromMinutes: number;
  toMinutes: number;
}

/** Every place where the rounded offset differs from the reading before (points in systemTime order). */
export function clockChanges(points: ReadonlyArray<{ t: number; offsetMinutes: number }>): ClockChange[] {
  const changes: ClockChange[] = [];
  for (let i = 1; i < points.length; i++) {
    const before = points[i - 1]!;
    const p = points[i]!;
    if (p.offsetMinutes !== before.offsetMinutes) {
      changes.push({ t: p.t, fromMinutes: before.offsetMinutes, toMinutes: p.offsetMinutes });
    }
  }
  return changes;
}
