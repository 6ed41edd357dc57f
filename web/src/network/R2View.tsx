// The "Multimedia network (R2)" view: the four R2 presets (DTable, DTable-WF2Q, SCFQ, DRR
// on the 64-node MIN) swept over total offered load with several seeds per point, on
// several engine workers at once. Per class: throughput, mean latency and p99 vs load with
// 90% confidence bands (the engine's statistics), latency CDFs at the highest load, and the
// improvement of DTable over each other scheduler. The sweep parameters live in the URL.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ExportButtons } from '../charts/ExportButtons';
import { cdfToCsv, downloadText } from '../charts/export';
import { colorFor } from '../charts/palette';
import { chooseTimeUnit } from '../charts/units';
import type { Engine } from '../engine/client';
import { runAtLoad } from '../sweep/runAtLoad';
import { fetchText } from '../presets/presets';
import { SharePanel } from '../share/SharePanel';
import { urlWithHash } from '../share/link';
import { useHashSync } from '../state/useHashSync';
import type { SweepEngine } from '../sweep/SweepPanel';
import { withDuration } from '../sweep/sweepData';
import { parseLoads, runPoints, workerCount, type PointOutcome } from '../sweep/sweepPlan';
import { PanelsChart, type Panel } from '../charts/PanelsChart';
import {
  admissionCsv,
  admissionRows,
  bandPanels,
  formatCount,
  formatImprovement,
  improvementCsv,
  improvementRows,
  jitterExtent,
  jitterPanels,
  planJobs,
  pointClasses,
  pointKey,
  pointSamples,
  pointsCsv,
  poolCdfs,
  R2_SCHEDULERS,
  runSummary,
  seedOf,
  withSeed,
  type ClassPoint,
  type R2Job,
  type RunSummary,
} from './r2Data';
import {
  durationProblem,
  encodeTrace,
  firstSeedProblem,
  parseR2Hash,
  r2Hash,
  seedsProblem,
  type R2Params,
  type R2Video,
} from './route';
import {
  readTraceCheck,
  SAMPLE_TRACE_PATH,
  TRACE_LINK_MAX_CHARS,
  traceErrorText,
  traceFitsLink,
  videoClass,
  withVideoTrace,
  type TraceCheck,
  type VideoClass,
} from './videoTrace';

/** Most runs of one R2 sweep (schedulers × loads × seeds). */
export const MAX_RUNS = 2000;
/** Most engine workers a sweep uses (capped by the machine's cores). */
export const MAX_WORKERS = 4;

interface Props {
  /** The page's engine (statistics; runs too when there is no worker factory). */
  engine: Engine;
  /** Makes an engine worker for the sweep (one per slot, disposed at the end). */
  createEngine?: () => SweepEngine;
  /** Reads a preset's JSON text by name (default: `presets/<name>.json` next to the page). */
  readPreset?: (name: string) => Promise<string>;
  /** The hash the view was opened with (default: the address's). */
  initialHash?: string;
  /** Reads the sample frame-size trace (default: `traces/sample-video.txt` next to the page). */
  readSampleTrace?: () => Promise<string>;
}

type Phase =
  | { phase: 'idle' }
  | { phase: 'running'; finished: number; total: number; workers: number }
  | { phase: 'done'; total: number; seconds: number }
  | { phase: 'cancelled'; finished: number; total: number }
  | { phase: 'failed'; message: string };

/** A sweep as started: its parameters and plan. */
interface Plan {
  params: R2Params;
  /** The VI source, in words (null: the presets' synthetic model). */
  video: string | null;
  labels: string[];
  jobs: R2Job[];
}

interface Fields {
  loads: string;
  seeds: string;
  seed: string;
  us: string;
}

const fieldsOf = (p: R2Params): Fields => ({
  loads: p.loads.join(', '),
  seeds: String(p.seeds),
  seed: p.firstSeed === null ? '' : String(p.firstSeed),
  us: p.durationUs === null ? '' : String(p.durationUs),
});

const wholeOrNull = (text: string): number | null => (text.trim() === '' ? null : /^\d+$/.test(text.trim()) ? Number(text) : NaN);

/** The parameters in the form, and a problem per field. */
function readFields(f: Fields) {
  const loads = parseLoads(f.loads);
  const seeds = /^\d+$/.test(f.seeds.trim()) ? Number(f.seeds) : NaN;
  const firstSeed = wholeOrNull(f.seed);
  const durationUs = wholeOrNull(f.us);
  const problems = {
    loads: loads.error,
    seeds: seedsProblem(seeds),
    seed: firstSeedProblem(firstSeed),
    us: durationProblem(durationUs),
  };
  const ok = Object.values(problems).every((p) => p === null);
  const params: R2Params | null = ok ? { loads: loads.loads, seeds, firstSeed, durationUs } : null;
  return { params, problems };
}

const defaultReadPreset = (name: string) => fetchText(`presets/${name}.json`);
const defaultReadSample = () => fetchText(SAMPLE_TRACE_PATH);


export function R2View({ engine, createEngine, readPreset = defaultReadPreset, initialHash, readSampleTrace = defaultReadSample }: Props) {
  const [initial] = useState(() => parseR2Hash(initialHash ?? window.location.hash));
  const [source, setSource] = useState<R2Video['source']>(initial.video.source);
  const [trace, setTrace] = useState<{ text: string; origin: string }>(() => ({
    text: initial.video.trace ?? '',
    origin: initial.video.trace === null ? '' : 'from the link',
  }));
  /** The engine's verdict and the text it is about (stale once the text changes). */
  const [checked, setChecked] = useState<{ text: string; result: TraceCheck } | null>(null);
  const [vi, setVi] = useState<VideoClass | null>(null);
  const [traceProblem, setTraceProblem] = useState<string | null>(null);
  const [fields, setFields] = useState<Fields>(() => fieldsOf(initial.params));
  const [linkProblems, setLinkProblems] = useState<string[]>(initial.problems);
  const [phase, setPhase] = useState<Phase>({ phase: 'idle' });
  const [plan, setPlan] = useState<Plan | null>(null);
  const [points, setPoints] = useState<Map<string, { load: number; runs: number; classes: ClassPoint[] }>>(new Map());
  const [seedsDone, setSeedsDone] = useState<Map<string, number>>(new Map());
  const [cdfRuns, setCdfRuns] = useState<Map<number, RunSummary[]>>(new Map());
  const [fractions, setFractions] = useState<number[]>([]);
  const controller = useRef<AbortController | null>(null);
  /** Which sweep is current: answers of an older sweep are dropped. */
  const generation = useRef(0);
  useEffect(() => () => controller.current?.abort(), []);

  const read = readFields(fields);
  const useTrace = source === 'trace';
  const tracePayload = useMemo(
    () => (useTrace && trace.text.trim() !== '' && traceFitsLink(trace.text) ? encodeTrace(trace.text) : null),
    [useTrace, trace.text],
  );
  const hash = read.params ? r2Hash(read.params, { source, tracePayload }) : null;
  const onExternal = useCallback((h: string) => {
    const parsed = parseR2Hash(h);
    setFields(fieldsOf(parsed.params));
    setLinkProblems(parsed.problems);
    setSource(parsed.video.source);
    if (parsed.video.trace !== null) setTrace({ text: parsed.video.trace, origin: 'from the link' });
  }, []);

  // The engine checks the trace (debounced while typing); older answers are dropped.
  const checkGen = useRef(0);
  useEffect(() => {
    const gen = ++checkGen.current;
    const text = trace.text;
    if (!useTrace || text.trim() === '') return;
    const frameTrace = engine.frameTrace?.bind(engine);
    const answer = (result: TraceCheck) => {
      if (checkGen.current === gen) setChecked({ text, result });
    };
    const timer = window.setTimeout(() => {
      if (!frameTrace) {
        answer({ ok: false, line: null, message: 'this engine cannot check frame-size traces' });
        return;
      }
      frameTrace(text, vi?.frameIntervalUs ?? 40_000).then(
        (json) => answer(readTraceCheck(json)),
        (e: unknown) => answer({ ok: false, line: null, message: `the engine could not check the trace (${String(e)})` }),
      );
    }, 150);
    return () => window.clearTimeout(timer);
  }, [engine, useTrace, trace.text, vi?.frameIntervalUs]);
  const check = checked && checked.text === trace.text ? checked.result : null;

  // What the VI class of the presets is (rate, frame interval, load), to say what the trace replaces.
  useEffect(() => {
    if (!useTrace || vi) return;
    let live = true;
    readPreset(R2_SCHEDULERS[0]?.preset ?? '').then(
      (json) => {
        if (live) setVi(videoClass(json));
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [useTrace, vi, readPreset]);
  useHashSync(hash, onExternal);
  const url = urlWithHash(hash ?? r2Hash(initial.params), window.location);

  const runs = read.params ? R2_SCHEDULERS.length * read.params.loads.length * read.params.seeds : 0;
  const tooMany = runs > MAX_RUNS ? `At most ${MAX_RUNS} runs per sweep (now ${runs}).` : null;
  const running = phase.phase === 'running';
  const traceReady = !useTrace || check?.ok === true;
  const canRun = read.params !== null && tooMany === null && !running && traceReady;

  const start = () => {
    const params = read.params;
    if (!params || tooMany || controller.current || !traceReady) return;
    const traceText = useTrace ? trace.text : null;
    const videoNote =
      useTrace && check?.ok ? `VI replays the frame-size trace ${trace.origin ? `(${trace.origin}, ` : '('}${check.summary.frames} frames), scaled to the synthetic model’s rate` : null;
    const meanCi90 = engine.meanCi90?.bind(engine);
    const abort = new AbortController();
    controller.current = abort;
    const gen = ++generation.current;
    const current = () => generation.current === gen;
    const summaries: Promise<void>[] = [];
    const labels = R2_SCHEDULERS.map((s) => s.label);
    const jobs = planJobs(labels.length, params.loads, params.seeds);
    const workers = workerCount(jobs.length, typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : 1, MAX_WORKERS);
    const lastLoad = params.loads.length - 1;
    setPlan({ params, labels, jobs, video: videoNote });
    setPoints(new Map());
    setSeedsDone(new Map());
    setCdfRuns(new Map());
    setFractions(new Array<number>(workers).fill(0));
    setPhase({ phase: 'running', finished: 0, total: jobs.length, workers });
    const started = performance.now();
    const progress = new Array<number>(workers).fill(0);
    const perPoint = new Map<string, RunSummary[]>();
    const engines: SweepEngine[] = [];
    void (async () => {
      try {
        if (!meanCi90) throw new Error('This engine cannot compute confidence intervals (meanCi90 is missing).');
        let presets: string[];
        try {
          presets = await Promise.all(R2_SCHEDULERS.map((s) => readPreset(s.preset)));
        } catch (e) {
          throw new Error(
            `The R2 presets could not be read (${R2_SCHEDULERS.map((s) => `${s.preset}.json`).join(', ')}): ${e instanceof Error ? e.message : String(e)}`,
            { cause: e },
          );
        }
        if (traceText !== null) {
          try {
            presets = presets.map((p) => withVideoTrace(p, traceText));
          } catch (e) {
            throw new Error(`The trace could not replace the VI class: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
          }
        }
        for (let i = 0; i < workers; i++) {
          if (createEngine) engines.push(createEngine());
          else if (engine.atLoad) engines.push({ run: engine.run.bind(engine), atLoad: engine.atLoad.bind(engine) });
          else throw new Error('This engine cannot scale scenarios to a load (atLoad is missing).');
          // Without a factory every slot shares the page's engine: one run at a time.
          if (!createEngine) break;
        }
        const slots = engines.length;
        const outcomes = await runPoints<RunSummary>(
          jobs.map((j) => ({ index: j.index, preset: j.scheduler, load: j.load })),
          slots,
          async (point, slot, signal): Promise<PointOutcome<RunSummary>> => {
            const job = jobs[point.index];
            const sweepEngine = engines[slot];
            const preset = presets[point.preset];
            if (!job || !sweepEngine || preset === undefined) return { status: 'failed', message: 'internal: no such run' };
            const label = labels[job.scheduler] ?? '';
            const seed = (params.firstSeed ?? seedOf(preset)) + job.seedIndex;
            const json = withSeed(withDuration(preset, params.durationUs), seed);
            const outcome = await runAtLoad(sweepEngine, json, job.load, `${label} at load ${job.load}, seed ${seed}`, (f) => (progress[slot] = f), signal);
            return outcome.status === 'done' ? { status: 'done', value: runSummary(outcome.value, job.loadIndex === lastLoad) } : outcome;
          },
          (point, outcome, finished) => {
            const job = jobs[point.index];
            if (!current()) return;
            if (outcome.status === 'done' && job) {
              const key = pointKey(job.scheduler, job.loadIndex);
              const list = perPoint.get(key) ?? [];
              list[job.seedIndex] = outcome.value;
              perPoint.set(key, list);
              const count = list.filter(Boolean).length;
              setSeedsDone((m) => new Map(m).set(key, count));
              if (job.loadIndex === lastLoad) setCdfRuns((m) => new Map(m).set(job.scheduler, list.filter(Boolean)));
              if (count === params.seeds) {
                // Every seed of the point is in: summarise it with the engine's statistics.
                const { names, samples } = pointSamples(list);
                summaries.push(
                  meanCi90(samples).then((stats) => {
                    if (current()) setPoints((m) => new Map(m).set(key, { load: job.load, runs: count, classes: pointClasses(names, stats) }));
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
  };

  // Smooth progress while runs are under way: poll the per-worker fractions.
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setFractions((f) => f.slice()), 250);
    return () => window.clearInterval(timer);
  }, [running]);

  const progressValue =
    phase.phase === 'running' && phase.total > 0
      ? Math.min(1, (phase.finished + fractions.reduce((a, b) => a + b, 0)) / phase.total)
      : 0;

  const set = (k: keyof Fields) => (e: React.ChangeEvent<HTMLInputElement>) => setFields((f) => ({ ...f, [k]: e.target.value }));
  const hint = (k: keyof Fields, text: string) => {
    const problem = read.problems[k];
    return problem ? (
      <div className="field-error" id={`r2-${k}-error`}>
        {problem}
      </div>
    ) : (
      <div className="hint" id={`r2-${k}-hint`}>
        {text}
      </div>
    );
  };
  const aria = (k: keyof Fields) => ({
    'aria-invalid': read.problems[k] ? true : undefined,
    'aria-describedby': read.problems[k] ? `r2-${k}-error` : `r2-${k}-hint`,
  });

  return (
    <main className="r2-view" aria-labelledby="r2-title">
      <section className="panel" aria-labelledby="r2-title">
        <h2 id="r2-title">Multimedia network (R2)</h2>
        <p className="help">
          The 64-end-point folded perfect-shuffle MIN of reference scenario R2 (CIOQ switches, 2 Gb/s links, seven classes)
          with four scheduler configurations: {R2_SCHEDULERS.map((s) => s.label).join(', ')}. Each is run at every total
          offered load (the QoS classes keep their injection; the best-effort classes carry the rest) with consecutive
          seeds; points show the mean over the seeds and shaded bands the 90% confidence interval (Student’s t).
        </p>
        <p className="help">
          Inspect or run one configuration in the link lab:{' '}
          {R2_SCHEDULERS.map((s, i) => (
            <span key={s.preset}>
              {i > 0 ? ' · ' : null}
              <a href={`#preset=${s.preset}`}>{s.label}</a>
            </span>
          ))}
          .
        </p>
        {linkProblems.length > 0 ? (
          <div className="banner warning" role="alert">
            <p>Some parameters of the link could not be read; their defaults are used:</p>
            <ul>
              {linkProblems.map((p, i) => (
                <li key={i}>{p}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <div className="grid sweep-form">
          <div className={`field${read.problems.loads ? ' has-error' : ''}`}>
            <label htmlFor="r2-loads">Total offered loads (fractions of the link)</label>
            <input id="r2-loads" type="text" value={fields.loads} onChange={set('loads')} {...aria('loads')} />
            {hint('loads', `Separated by commas or spaces; R2 sweeps 0.76 to 1.0. ${runs} runs in all.`)}
          </div>
          <div className={`field${read.problems.seeds ? ' has-error' : ''}`}>
            <label htmlFor="r2-seeds">Seeds per point</label>
            <input id="r2-seeds" type="number" min={1} step={1} value={fields.seeds} onChange={set('seeds')} {...aria('seeds')} />
            {hint('seeds', 'Independent replications (R2: 10); two or more give confidence bands.')}
          </div>
          <div className={`field${read.problems.seed ? ' has-error' : ''}`}>
            <label htmlFor="r2-seed">First seed</label>
            <input id="r2-seed" type="number" min={0} step={1} placeholder="each preset’s" value={fields.seed} onChange={set('seed')} {...aria('seed')} />
            {hint('seed', 'Seeds are this, this + 1, …; empty starts at each preset’s seed.')}
          </div>
          <div className={`field${read.problems.us ? ' has-error' : ''}`}>
            <label htmlFor="r2-us">Simulated time per run (µs)</label>
            <input id="r2-us" type="number" min={1} step={1} placeholder="each preset’s" value={fields.us} onChange={set('us')} {...aria('us')} />
            {hint('us', 'Empty keeps each preset’s; the warm-up shrinks in proportion.')}
          </div>
        </div>
        <VideoSource
          source={source}
          onSource={setSource}
          trace={trace}
          onTrace={(text, origin) => {
            setTrace({ text, origin });
            setTraceProblem(null);
          }}
          check={check}
          vi={vi}
          problem={traceProblem}
          onSample={() => {
            readSampleTrace().then(
              (text) => {
                setTrace({ text, origin: 'the sample trace' });
                setTraceProblem(null);
              },
              (e: unknown) => setTraceProblem(`The sample trace could not be read: ${e instanceof Error ? e.message : String(e)}`),
            );
          }}
          onFileProblem={setTraceProblem}
        />
        {tooMany ? <div className="field-error">{tooMany}</div> : null}
        <div className="row">
          <button type="button" className="primary" disabled={!canRun} onClick={start}>
            Run R2 sweep
          </button>
          {running ? (
            <button type="button" onClick={() => controller.current?.abort()}>
              Cancel
            </button>
          ) : null}
          <span className="run-progress" data-testid="r2-progress" hidden={!running}>
            <progress max={1} value={progressValue} aria-label="R2 sweep progress" />
          </span>
          <span role="status" aria-live="polite" className="note" data-testid="r2-status">
            {phase.phase === 'running'
              ? `Running: ${phase.finished} of ${phase.total} runs (${phase.workers} ${phase.workers === 1 ? 'worker' : 'workers'})`
              : phase.phase === 'done'
                ? `Done: ${phase.total} runs in ${phase.seconds.toFixed(1)} s.`
                : phase.phase === 'cancelled'
                  ? `Cancelled: ${phase.finished} of ${phase.total} runs finished.`
                  : phase.phase === 'failed'
                    ? `Failed: ${phase.message}`
                    : ''}
          </span>
        </div>
        <SharePanel url={url} />
      </section>
      {plan ? <PointProgress plan={plan} seedsDone={seedsDone} /> : null}
      {plan && points.size > 0 ? <R2Results plan={plan} points={points} cdfRuns={cdfRuns} /> : null}
    </main>
  );
}

const formatRate = (bps: number) => (bps >= 1e6 ? `${+(bps / 1e6).toFixed(2)} Mb/s` : `${+(bps / 1e3).toFixed(1)} kb/s`);

/**
 * The VI class's source: the presets' synthetic model, or a frame-size trace (file, paste
 * or the sample), checked by the engine; its refusal (naming the line) shows under the control.
 */
function VideoSource({
  source,
  onSource,
  trace,
  onTrace,
  check,
  vi,
  problem,
  onSample,
  onFileProblem,
}: {
  source: R2Video['source'];
  onSource: (s: R2Video['source']) => void;
  trace: { text: string; origin: string };
  onTrace: (text: string, origin: string) => void;
  check: TraceCheck | null;
  vi: VideoClass | null;
  problem: string | null;
  onSample: () => void;
  onFileProblem: (p: string | null) => void;
}) {
  const useTrace = source === 'trace';
  const empty = trace.text.trim() === '';
  const error = problem ?? (check && !check.ok ? traceErrorText(check) : null);
  const rate = vi ? formatRate(vi.rateBps) : 'the synthetic model’s rate';
  return (
    <fieldset className="r2-video" data-testid="r2-video">
      <legend>Video source (class {vi?.name ?? 'VI'})</legend>
      <div className="row" role="radiogroup" aria-label="Video source">
        <label>
          <input type="radio" name="r2-video" value="synthetic" checked={!useTrace} onChange={() => onSource('synthetic')} /> Synthetic
          model (the presets’ MPEG-4 GOP model)
        </label>
        <label>
          <input type="radio" name="r2-video" value="trace" checked={useTrace} onChange={() => onSource('trace')} /> Upload a frame-size
          trace
        </label>
      </div>
      {useTrace ? (
        <div className="r2-trace">
          <div className="row">
            <label htmlFor="r2-trace-file">Frame-size trace file</label>
            <input
              id="r2-trace-file"
              type="file"
              accept=".txt,.trace,.csv,text/plain"
              aria-describedby={error ? 'r2-trace-error' : 'r2-trace-hint'}
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (!file) return;
                file.text().then(
                  (text) => onTrace(text, file.name),
                  (err: unknown) => onFileProblem(`${file.name} could not be read: ${err instanceof Error ? err.message : String(err)}`),
                );
              }}
            />
            <button type="button" onClick={onSample}>
              Use the sample trace
            </button>
          </div>
          <div className={`field${error ? ' has-error' : ''}`}>
            <label htmlFor="r2-trace-text">Or paste a frame-size trace (one frame size in bytes per line, # comments)</label>
            <textarea
              id="r2-trace-text"
              rows={5}
              spellCheck={false}
              value={trace.text}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'r2-trace-error' : 'r2-trace-hint'}
              onChange={(e) => onTrace(e.target.value, 'pasted')}
            />
            {error ? (
              <div className="field-error" id="r2-trace-error" role="alert">
                {trace.origin && trace.origin !== 'pasted' ? `${trace.origin}: ` : ''}
                {error}
              </div>
            ) : (
              <div className="hint" id="r2-trace-hint" data-testid="r2-trace-summary">
                {empty
                  ? 'No trace yet: choose a file, paste sizes or use the sample (a synthetic GOP trace).'
                  : check === null
                    ? 'Checking the trace…'
                    : check.ok
                      ? `${trace.origin ? `${trace.origin}: ` : ''}${check.summary.frames} frames, mean ${Math.round(check.summary.meanBytes)} B (${check.summary.minBytes}–${check.summary.maxBytes} B), ${formatRate(check.summary.meanRateBps)} unscaled.`
                      : ''}{' '}
                Every {vi?.name ?? 'VI'} stream replays the trace cyclically from a seeded random frame, one frame every{' '}
                {vi ? `${vi.frameIntervalUs / 1000} ms` : 'frame interval of the presets'}, with every frame scaled so the stream’s mean
                rate is {rate} (the synthetic model’s): {vi?.name ?? 'VI'} opens as many connections and offers the same load
                {vi ? ` (${vi.load} of each link)` : ''}; only the frame-size pattern changes.
              </div>
            )}
            {!empty && !traceFitsLink(trace.text) ? (
              <div className="note" data-testid="r2-trace-link-note">
                The share link does not include this trace (it is more than {TRACE_LINK_MAX_CHARS / 1024} KiB of text): it says
                “trace”, and whoever opens it must upload the file again.
              </div>
            ) : null}
          </div>
        </div>
      ) : null}
    </fieldset>
  );
}

/** Seeds finished per (scheduler, load) point, as a table. */
function PointProgress({ plan, seedsDone }: { plan: Plan; seedsDone: ReadonlyMap<string, number> }) {
  const { params, labels } = plan;
  return (
    <section className="panel" aria-labelledby="r2-points-title">
      <h3 id="r2-points-title">Points</h3>
      <div className="table-scroll">
        <table className="results-table r2-points" data-testid="r2-points">
          <caption>
            Seeds finished per scheduler and load (of {params.seeds}){plan.video ? `; ${plan.video}` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Scheduler</th>
              {params.loads.map((l) => (
                <th scope="col" key={l}>
                  {l}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((label, s) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {params.loads.map((l, li) => {
                  const done = seedsDone.get(pointKey(s, li)) ?? 0;
                  return (
                    <td key={l} className={done === params.seeds ? 'point-done' : undefined}>
                      <progress max={params.seeds} value={done} aria-label={`${label} at load ${l}: ${done} of ${params.seeds} seeds`} />{' '}
                      {done}/{params.seeds}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

const FILE = 'qoslab-r2';

function ChartSection({ id, title, csv, children }: { id: string; title: string; csv: () => string; children: (ref: React.RefObject<SVGSVGElement | null>) => React.ReactNode }) {
  const ref = useRef<SVGSVGElement>(null);
  return (
    <section className="panel cdf-panel" aria-labelledby={`${id}-title`} data-testid={id}>
      <div className="panel-head">
        <h3 id={`${id}-title`}>{title}</h3>
        <div className="cdf-toolbar" role="group" aria-label={`${title}: export`}>
          <ExportButtons svgRef={ref} filename={`${FILE}-${id.replace(/^r2-/, '')}`} csv={csv} />
        </div>
      </div>
      {children(ref)}
    </section>
  );
}

function R2Results({
  plan,
  points,
  cdfRuns,
}: {
  plan: Plan;
  points: ReadonlyMap<string, { load: number; runs: number; classes: ClassPoint[] }>;
  cdfRuns: ReadonlyMap<number, RunSummary[]>;
}) {
  const { labels, params } = plan;
  const loads = params.loads;
  const latencies = [...points.values()].flatMap((p) => p.classes.flatMap((c) => [c.p99Ns.mean ?? 0, (c.p99Ns.mean ?? 0) + (c.p99Ns.ci90 ?? 0)]));
  const unit = chooseTimeUnit(Math.max(0, ...latencies));
  const throughput = useMemo(() => bandPanels(labels, loads, points, 'throughput'), [labels, loads, points]);
  const mean = useMemo(() => bandPanels(labels, loads, points, 'meanNs', unit.factor), [labels, loads, points, unit.factor]);
  const p99 = useMemo(() => bandPanels(labels, loads, points, 'p99Ns', unit.factor), [labels, loads, points, unit.factor]);
  const cdfPanels = useMemo((): Panel[] => {
    const names = (cdfRuns.values().next().value ?? [])[0]?.map((c) => c.name) ?? [];
    return names.map((title, c) => ({
      title,
      series: labels.map((name, s) => ({
        name,
        colorIndex: s,
        points: poolCdfs((cdfRuns.get(s) ?? []).map((r) => ({ samples: r[c]?.samples ?? 0, cdf: r[c]?.cdf ?? [] }))).map(
          ([x, f]) => [x / unit.factor, f] as const,
        ),
      })),
    }));
  }, [cdfRuns, labels, unit.factor]);
  const rows = useMemo(() => improvementRows(labels.length, loads, points), [labels.length, loads, points]);
  const csv = () => pointsCsv(labels, loads, points);
  const highest = loads[loads.length - 1] ?? 0;
  const cdfCsv = () =>
    cdfToCsv(
      cdfPanels.flatMap((p) =>
        p.series.map((s) => ({ label: `${p.title} / ${s.name}`, points: s.points.map(([x, f]) => [x * unit.factor, f] as const) })),
      ),
    );
  const others = labels.slice(1);
  const tableLoadsShown = [...new Set(rows.map((r) => r.load))];
  return (
    <>
      <ChartSection id="r2-throughput" title="Throughput per class vs offered load (each class on its own scale)" csv={csv}>
        {(ref) => (
          <PanelsChart
            panels={throughput}
            title="Throughput per class vs total offered load"
            xLabel="Total offered load"
            yLabel="Throughput (fraction of link)"
            independentY
            svgRef={ref}
          />
        )}
      </ChartSection>
      <ChartSection id="r2-mean" title="Mean latency per class vs offered load" csv={csv}>
        {(ref) => (
          <PanelsChart panels={mean} title="Mean latency per class vs total offered load" xLabel="Total offered load" yLabel={`Mean latency (${unit.unit})`} svgRef={ref} />
        )}
      </ChartSection>
      <ChartSection id="r2-p99" title="99th percentile latency per class vs offered load" csv={csv}>
        {(ref) => (
          <PanelsChart panels={p99} title="99th percentile latency per class vs total offered load" xLabel="Total offered load" yLabel={`p99 latency (${unit.unit})`} svgRef={ref} />
        )}
      </ChartSection>
      {cdfRuns.size === 0 ? (
        <p className="note" role="note">
          Latency CDFs appear when runs at the highest load ({highest}) are in.
        </p>
      ) : (
        <ChartSection id="r2-cdf" title={`Latency CDF per class at load ${highest}`} csv={cdfCsv}>
          {(ref) => (
            <PanelsChart
              panels={cdfPanels}
              title={`Latency CDF per class at total offered load ${highest} (all seeds pooled)`}
              xLabel={`Latency (${unit.unit}), log scale`}
              yLabel="Fraction ≤ latency"
              step
              logX
              yDomain={[0, 1]}
              svgRef={ref}
            />
          )}
        </ChartSection>
      )}
      {cdfRuns.size === 0 ? null : (
        <>
          <JitterSection labels={labels} cdfRuns={cdfRuns} highest={highest} />
          <AdmissionSection labels={labels} cdfRuns={cdfRuns} highest={highest} />
        </>
      )}
      <section className="panel" aria-labelledby="r2-improvement-title">
        <div className="panel-head">
          <h3 id="r2-improvement-title">Improvement of DTable over the other schedulers</h3>
          <div className="cdf-toolbar" role="group" aria-label="Improvement table: export">
            <button type="button" onClick={() => downloadText(`${FILE}-improvement.csv`, 'text/csv;charset=utf-8', improvementCsv(labels, rows))}>
              Export CSV
            </button>
          </div>
        </div>
        <div className="table-scroll">
          <table className="results-table" data-testid="r2-improvement">
            <caption>
              Latency reduction of DTable, in % of the other scheduler’s latency ((other − DTable) / other; positive: DTable is
              faster), at loads {tableLoadsShown.join(', ')}
            </caption>
            <thead>
              <tr>
                <th scope="col" rowSpan={2}>
                  Class
                </th>
                <th scope="col" rowSpan={2}>
                  Load
                </th>
                {others.map((o, k) => (
                  <th scope="colgroup" colSpan={2} key={o}>
                    <span className="swatch" style={{ background: colorFor(k + 1) }} aria-hidden="true" />
                    vs {o}
                  </th>
                ))}
              </tr>
              <tr>
                {others.map((o) => (
                  <FragmentPair key={o} />
                ))}
              </tr>
            </thead>
            <tbody>
              {groupRows(rows, others.length).map((group) => (
                <tr key={`${group.className}@${group.load}`}>
                  <th scope="row">{group.className}</th>
                  <td>{group.load}</td>
                  {group.cells.flatMap((cell, k) => [
                    <td key={`${k}m`} data-other={others[k]} data-metric="mean">
                      {formatImprovement(cell.mean)}
                    </td>,
                    <td key={`${k}p`} data-other={others[k]} data-metric="p99">
                      {formatImprovement(cell.p99)}
                    </td>,
                  ])}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}

/** Runs shorter than this give voice and controlled-load connections no jitter sample (they send every 20–22 ms). */
const JITTER_NOTE = 'no samples: run longer than 20 ms';

/** Jitter CDFs per connection class at the highest load, pooled over the seeds, on a symmetric linear axis. */
function JitterSection({ labels, cdfRuns, highest }: { labels: string[]; cdfRuns: ReadonlyMap<number, RunSummary[]>; highest: number }) {
  const all = useMemo(() => jitterPanels(labels, cdfRuns), [labels, cdfRuns]);
  const shown = all.filter((p) => p.samples > 0);
  const empty = all.filter((p) => p.samples === 0);
  const unit = chooseTimeUnit(jitterExtent(shown));
  const panels: Panel[] = shown.map((p) => ({
    title: p.title,
    series: p.series.map((s) => ({ ...s, points: s.points.map(([x, f]) => [x / unit.factor, f] as const) })),
  }));
  const csv = () => cdfToCsv(shown.flatMap((p) => p.series.map((s) => ({ label: `${p.title} / ${s.name}`, points: s.points }))));
  return (
    <ChartSection id="r2-jitter" title={`Jitter CDF per connection class at load ${highest}`} csv={csv}>
      {(ref) => (
        <>
          <p className="help">
            Jitter of a packet: the change of its connection’s inter-arrival time against its inter-generation time (negative:
            closer together than sent). Signed values on a linear axis symmetric around 0; all seeds pooled; one curve per
            scheduler.
          </p>
          {empty.length > 0 ? (
            <ul className="note r2-jitter-empty" data-testid="r2-jitter-empty">
              {empty.map((p) => (
                <li key={p.title}>
                  <strong>{p.title}</strong> ({JITTER_NOTE})
                </li>
              ))}
            </ul>
          ) : null}
          {panels.length > 0 ? (
            <PanelsChart
              panels={panels}
              title={`Jitter CDF per connection class at total offered load ${highest} (all seeds pooled)`}
              xLabel={`Jitter (${unit.unit}), signed, linear`}
              yLabel="Fraction ≤ jitter"
              step
              symmetricX
              yDomain={[0, 1]}
              svgRef={ref}
            />
          ) : (
            <p className="note">No connection class has jitter samples in these runs.</p>
          )}
        </>
      )}
    </ChartSection>
  );
}

/** Connections requested / admitted / refused per connection class at the highest load. */
function AdmissionSection({ labels, cdfRuns, highest }: { labels: string[]; cdfRuns: ReadonlyMap<number, RunSummary[]>; highest: number }) {
  const { rows, sameForAll } = useMemo(() => admissionRows(labels, cdfRuns), [labels, cdfRuns]);
  const runs = rows[0]?.runs ?? 0;
  return (
    <section className="panel" aria-labelledby="r2-admission-title">
      <div className="panel-head">
        <h3 id="r2-admission-title">Admission of connections</h3>
        <div className="cdf-toolbar" role="group" aria-label="Admission table: export">
          <button type="button" onClick={() => downloadText(`${FILE}-admission.csv`, 'text/csv;charset=utf-8', admissionCsv(labels, rows))}>
            Export CSV
          </button>
        </div>
      </div>
      <div className="table-scroll">
        <table className="results-table" data-testid="r2-admission">
          <caption>
            Connections per run at load {highest}
            {sameForAll
              ? `, identical for every scheduler (admission happens before any packet moves)`
              : ', per scheduler'}
            ; over {runs} {runs === 1 ? 'seed' : 'seeds'}: the number when all seeds agree, else mean (least–most)
          </caption>
          <thead>
            <tr>
              <th scope="col">Class</th>
              {sameForAll ? null : <th scope="col">Scheduler</th>}
              <th scope="col">Requested</th>
              <th scope="col">Admitted</th>
              <th scope="col">Refused</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.className}@${r.scheduler ?? 'all'}`}>
                <th scope="row">{r.className}</th>
                {sameForAll ? null : <td>{labels[r.scheduler ?? 0]}</td>}
                <td>{formatCount(r.requested)}</td>
                <td>{formatCount(r.admitted)}</td>
                <td>{formatCount(r.refused)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function FragmentPair() {
  return (
    <>
      <th scope="col">mean</th>
      <th scope="col">p99</th>
    </>
  );
}

/** Rows of the table: one per (class, load), with a (mean, p99) cell pair per other scheduler. */
function groupRows(rows: ReturnType<typeof improvementRows>, others: number) {
  const out: { className: string; load: number; cells: { mean: number | null; p99: number | null }[] }[] = [];
  for (let i = 0; i < rows.length; i += others) {
    const first = rows[i];
    if (!first) break;
    out.push({ className: first.className, load: first.load, cells: rows.slice(i, i + others).map((r) => ({ mean: r.mean, p99: r.p99 })) });
  }
  return out;
}
