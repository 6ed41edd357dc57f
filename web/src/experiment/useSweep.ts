// Runs a study's sweep: every (configuration, load, seed) on several engine workers, with
// progress per worker, cancel, and each point summarised by the engine's `mean_ci90` once
// its seeds are in. Older sweeps' answers are dropped.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Engine, SweepEngine } from '../engine/client';
import type { HardwareCost } from '../generated';
import { runAtLoad } from '../sweep/runAtLoad';
import { withDuration } from '../sweep/sweepData';
import { runPoints, workerCount, type PointOutcome } from '../sweep/sweepPlan';
import { planJobs, pointClasses, pointKey, pointSamples, runSummary, seedOf, withSeed, type ClassPoint, type Job, type RunSummary } from './data';
import type { StudyParams } from './route';
import { AXIS_INFO, type AxisKind } from './study';

/** Most runs of one sweep (configurations × loads × seeds). */
export const MAX_RUNS = 2000;
/** Most engine workers a sweep uses (capped by the machine's cores). */
export const MAX_WORKERS = 4;

export type Phase =
  | { phase: 'idle' }
  | { phase: 'running'; finished: number; total: number; workers: number }
  | { phase: 'done'; total: number; seconds: number }
  | { phase: 'cancelled'; finished: number; total: number }
  | { phase: 'failed'; message: string };

/** A sweep as started: its parameters and plan. */
export interface Plan {
  params: StudyParams;
  /** What `params.loads` holds (default: total offered loads). */
  axis?: AxisKind;
  /** The video source, in words (null: the presets' synthetic model). */
  video: string | null;
  labels: string[];
  /** The study's configuration of each of the sweep's (indices into the study's list, in the labels' order). */
  configs: number[];
  jobs: Job[];
}

export type PointMap = ReadonlyMap<string, { load: number; runs: number; classes: ClassPoint[] }>;

/** What to run: the configurations' labels and (when called) their scenarios' JSON. */
export interface SweepRequest {
  params: StudyParams;
  /** What `params.loads` holds (default: total offered loads). */
  axis?: AxisKind;
  labels: string[];
  /** The study's configuration of each label (default: the first ones, in order). */
  configs?: number[];
  /** The configurations' scenarios (JSON text), in the labels' order; throws with a reason. */
  scenarios: () => Promise<string[]>;
  video: string | null;
}

/** What the sweep keeps of a run: its per-class summary and its network's hardware (null: none). */
interface RunKept {
  summary: RunSummary;
  hardware: HardwareCost | null;
}

/** How many workers a sweep of `runs` runs uses on this machine. */
export const workersFor = (runs: number) => workerCount(runs, typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : 1, MAX_WORKERS);

export function useSweep(engine: Engine, createEngine?: () => SweepEngine) {
  const [phase, setPhase] = useState<Phase>({ phase: 'idle' });
  const [plan, setPlan] = useState<Plan | null>(null);
  const [points, setPoints] = useState<PointMap>(new Map());
  const [seedsDone, setSeedsDone] = useState<ReadonlyMap<string, number>>(new Map());
  const [cdfRuns, setCdfRuns] = useState<ReadonlyMap<number, RunSummary[]>>(new Map());
  /** Per configuration, the hardware blocks of its finished runs (the cost panel). */
  const [hardware, setHardware] = useState<ReadonlyMap<number, (HardwareCost | null)[]>>(new Map());
  const [fractions, setFractions] = useState<number[]>([]);
  const controller = useRef<AbortController | null>(null);
  /** Which sweep is current: answers of an older sweep are dropped. */
  const generation = useRef(0);
  useEffect(() => () => controller.current?.abort(), []);
  const running = phase.phase === 'running';

  const start = useCallback(
    (req: SweepRequest) => {
      if (controller.current) return;
      const { params, labels } = req;
      const axis = req.axis ?? 'load';
      const { engine: axisName, noun } = AXIS_INFO[axis];
      const meanCi90 = engine.meanCi90.bind(engine);
      const abort = new AbortController();
      controller.current = abort;
      const gen = ++generation.current;
      const current = () => generation.current === gen;
      const summaries: Promise<void>[] = [];
      const jobs = planJobs(labels.length, params.loads, params.seeds);
      const workers = workersFor(jobs.length);
      const lastLoad = params.loads.length - 1;
      setPlan({ params, axis, labels, configs: req.configs ?? labels.map((_, i) => i), jobs, video: req.video });
      setPoints(new Map());
      setSeedsDone(new Map());
      setCdfRuns(new Map());
      setHardware(new Map());
      setFractions(new Array<number>(workers).fill(0));
      setPhase({ phase: 'running', finished: 0, total: jobs.length, workers });
      const started = performance.now();
      const progress = new Array<number>(workers).fill(0);
      const perPoint = new Map<string, RunSummary[]>();
      const engines: SweepEngine[] = [];
      void (async () => {
        try {
          const scenarios = await req.scenarios();
          for (let i = 0; i < workers; i++) {
            if (createEngine) engines.push(createEngine());
            else engines.push({ run: engine.run.bind(engine), atLoad: engine.atLoad.bind(engine), atPoint: engine.atPoint.bind(engine) });
            // Without a factory every slot shares the page's engine: one run at a time.
            if (!createEngine) break;
          }
          const slots = engines.length;
          const outcomes = await runPoints<RunKept>(
            jobs.map((j) => ({ index: j.index, preset: j.scheduler, load: j.load })),
            slots,
            async (point, slot, signal): Promise<PointOutcome<RunKept>> => {
              const job = jobs[point.index];
              const sweepEngine = engines[slot];
              const scenario = scenarios[point.preset];
              if (!job || !sweepEngine || scenario === undefined) return { status: 'failed', message: 'internal: no such run' };
              const seed = (params.firstSeed ?? seedOf(scenario)) + job.seedIndex;
              const json = withSeed(withDuration(scenario, params.durationUs), seed);
              const what = `${labels[job.scheduler] ?? ''} at ${noun} ${job.load}, seed ${seed}`;
              const outcome = await runAtLoad(sweepEngine, json, job.load, what, (f) => (progress[slot] = f), signal, axisName);
              return outcome.status === 'done' ? { status: 'done', value: { summary: runSummary(outcome.value, job.loadIndex === lastLoad), hardware: outcome.value.hardware ?? null } } : outcome;
            },
            (point, outcome, finished) => {
              const job = jobs[point.index];
              if (!current()) return;
              if (outcome.status === 'done' && job) {
                const key = pointKey(job.scheduler, job.loadIndex);
                const list = perPoint.get(key) ?? [];
                list[job.seedIndex] = outcome.value.summary;
                const block = outcome.value.hardware;
                setHardware((m) => new Map(m).set(job.scheduler, [...(m.get(job.scheduler) ?? []), block]));
                perPoint.set(key, list);
                const count = list.filter(Boolean).length;
                setSeedsDone((m) => new Map(m).set(key, count));
                if (job.loadIndex === lastLoad) setCdfRuns((m) => new Map(m).set(job.scheduler, list.filter(Boolean)));
                if (count === params.seeds) {
                  // Every seed of the point is in: summarise it with the engine's statistics.
                  const { names, samples, metrics } = pointSamples(list);
                  summaries.push(
                    meanCi90(samples).then((stats) => {
                      if (current()) setPoints((m) => new Map(m).set(key, { load: job.load, runs: count, classes: pointClasses(names, stats, metrics) }));
                    }),
                  );
                }
              }
              setFractions(progress.slice());
              if (!abort.signal.aborted) setPhase({ phase: 'running', finished, total: jobs.length, workers: slots });
            },
            abort.signal,
          );
          await Promise.all(summaries);
          if (!current()) return;
          const failed = outcomes.find((o) => o.status === 'failed');
          const finished = outcomes.filter((o) => o.status === 'done').length;
          if (failed && failed.status === 'failed') setPhase({ phase: 'failed', message: failed.message });
          else if (abort.signal.aborted || finished < jobs.length) setPhase({ phase: 'cancelled', finished, total: jobs.length });
          else setPhase({ phase: 'done', total: jobs.length, seconds: (performance.now() - started) / 1000 });
        } catch (e) {
          if (current()) setPhase({ phase: 'failed', message: e instanceof Error ? e.message : String(e) });
        } finally {
          if (createEngine) for (const e of engines) e.dispose?.();
          if (controller.current === abort) controller.current = null;
        }
      })();
    },
    [engine, createEngine],
  );

  // Smooth progress while runs are under way: poll the per-worker fractions.
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setFractions((f) => f.slice()), 250);
    return () => window.clearInterval(timer);
  }, [running]);

  const progress =
    phase.phase === 'running' && phase.total > 0 ? Math.min(1, (phase.finished + fractions.reduce((a, b) => a + b, 0)) / phase.total) : 0;
  const cancel = useCallback(() => controller.current?.abort(), []);
  return { phase, plan, points, seedsDone, cdfRuns, hardware, progress, running, start, cancel };
}
