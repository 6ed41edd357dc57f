// A sweep: every (preset, load) point, run with at most `workers` points at a time, in a
// fixed order (preset by preset, load by load) so results land in their place whatever
// order they finish in. Pure scheduling, no engine: the caller supplies `runPoint`.

/** The default total loads: 0.2, 0.4, ..., 2.0 of the link (R1's knee is at 1.0). */
export const DEFAULT_LOADS: readonly number[] = Array.from({ length: 10 }, (_, i) => Number(((i + 1) / 5).toFixed(1)));

/** Most points of one sweep. */
export const MAX_POINTS = 400;

/** Reads a load list ("0.1, 0.2 0.5"): numbers above 0 and at most 4, sorted, no repeats. */
export function parseLoads(text: string): { loads: number[]; error: string | null } {
  const parts = text.split(/[\s,;]+/).filter((p) => p !== '');
  if (parts.length === 0) return { loads: [], error: 'Give at least one load.' };
  const loads: number[] = [];
  for (const p of parts) {
    const v = Number(p);
    if (!Number.isFinite(v) || v <= 0 || v > 4) return { loads: [], error: `“${p}” is not a load above 0 and at most 4.` };
    if (!loads.includes(v)) loads.push(v);
  }
  loads.sort((a, b) => a - b);
  return { loads, error: null };
}

/** One point of a sweep. */
export interface SweepPoint {
  /** Position in the plan (results are stored by it). */
  index: number;
  /** Which preset (scheduler) of the sweep. */
  preset: number;
  /** Total offered load, fraction of the link. */
  load: number;
}

/** Every (preset, load) point, preset-major. */
export function planPoints(presets: number, loads: readonly number[]): SweepPoint[] {
  const out: SweepPoint[] = [];
  for (let p = 0; p < presets; p++) for (const load of loads) out.push({ index: out.length, preset: p, load });
  return out;
}

/** Workers to use: `hardwareConcurrency` capped to 2 (and to the number of points), at least 1. */
export function workerCount(points: number, hardware: number | undefined, cap = 2): number {
  const hw = hardware && Number.isFinite(hardware) && hardware > 0 ? Math.floor(hardware) : 1;
  return Math.max(1, Math.min(cap, hw, points));
}

/** How one point ended. */
export type PointOutcome<T> = { status: 'done'; value: T } | { status: 'failed'; message: string } | { status: 'cancelled' };

/**
 * Runs `points` on `workers` slots: each slot takes the next point when its current one
 * ends, so at most `workers` run at once. `runPoint(point, slot, signal)` runs one point on
 * slot `slot` (0-based). Stops taking points once `signal` aborts or a point fails; returns
 * the outcome of every point (cancelled for those never run).
 */
export async function runPoints<T>(
  points: readonly SweepPoint[],
  workers: number,
  runPoint: (point: SweepPoint, slot: number, signal: AbortSignal) => Promise<PointOutcome<T>>,
  onPoint: (point: SweepPoint, outcome: PointOutcome<T>, finished: number) => void,
  signal: AbortSignal,
): Promise<PointOutcome<T>[]> {
  const outcomes: PointOutcome<T>[] = points.map(() => ({ status: 'cancelled' }));
  let next = 0;
  let finished = 0;
  let failed = false;
  const slot = async (s: number) => {
    while (!signal.aborted && !failed && next < points.length) {
      const point = points[next++];
      if (!point) break;
      let outcome: PointOutcome<T>;
      try {
        outcome = await runPoint(point, s, signal);
      } catch (e) {
        outcome = { status: 'failed', message: e instanceof Error ? e.message : String(e) };
      }
      outcomes[point.index] = outcome;
      if (outcome.status === 'failed') failed = true;
      if (outcome.status !== 'cancelled') finished++;
      onPoint(point, outcome, finished);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, workers) }, (_, s) => slot(s)));
  return outcomes;
}
