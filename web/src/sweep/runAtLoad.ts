// One sweep point on one worker: scale the scenario to a total offered load, run it with
// progress and cancel, and read its results. Shared by the sweep and R2 views.
import type { Axis, RunResults } from '../generated';
import { engineErrorLines } from '../shared/errors';
import { parseResults } from '../shared/format';
import type { SweepEngine } from '../engine/client';
import type { PointOutcome } from './sweepPlan';
import { outcomeLines } from '../engine/outcome';

/**
 * Scales `json` to total offered `load` on `engine`, runs it reporting its fraction to
 * `onFraction` (0 again when it ends), and gives its results; a failure's message starts
 * with `what` (e.g. "R1: DTable at load 0.5"). Along another `axis` (a network processor's
 * `streams` or `packet_bytes`) the engine's `atPoint` sets the value instead.
 */
export async function runAtLoad(
  engine: SweepEngine,
  json: string,
  load: number,
  what: string,
  onFraction: (fraction: number) => void,
  signal: AbortSignal,
  axis: Axis = 'load',
): Promise<PointOutcome<RunResults>> {
  const scaled = axis === 'load' ? await engine.atLoad(json, load) : engine.atPoint ? await engine.atPoint(json, axis, load) : null;
  if (scaled === null) return { status: 'failed', message: `${what}: this engine cannot sweep along “${axis}”` };
  if (scaled.status !== 'done') return { status: 'failed', message: `${what}: ${outcomeLines(scaled).join('; ')}` };
  onFraction(0);
  // A late progress report (its own channel) must not touch the slot's next point.
  let live = true;
  const outcome = await engine.run(
    scaled.scenarioJson,
    (p) => {
      if (live) onFraction(p.fraction);
    },
    signal,
  );
  live = false;
  onFraction(0);
  switch (outcome.status) {
    case 'done':
      return { status: 'done', value: parseResults(outcome.resultsJson) };
    case 'cancelled':
      return { status: 'cancelled' };
    case 'invalid':
      return { status: 'failed', message: `${what}: ${engineErrorLines(outcome.error).join('; ')}` };
    case 'stopped':
      return { status: 'failed', message: `${what}: ${engineErrorLines(outcome.error).join('; ')}` };
    case 'crashed':
      return { status: 'failed', message: `The engine failed on ${what} and was restarted: ${outcome.message}` };
  }
}
