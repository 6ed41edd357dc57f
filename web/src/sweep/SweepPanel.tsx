// Throughput per class vs offered load for the schedulers of a preset group, side by side
// (small multiples, same axes): each (preset, load) point is the preset scaled to that
// total load by the engine (`scenario_at_load`) and run, on up to two workers at once.
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { ExportButtons } from '../charts/ExportButtons';
import { colorFor } from '../charts/palette';
import { PanelsChart } from '../charts/PanelsChart';
import type { SweepEngine } from '../engine/client';
import { formatPercent } from '../shared/format';
import type { PresetInfo } from '../presets/presets';
import { runAtLoad } from './runAtLoad';
import { pointResult, sweepCsv, sweepPanels, sweepRows, withDuration, type PointResult } from './sweepData';
import { DEFAULT_LOADS, MAX_POINTS, parseLoads, planPoints, runPoints, workerCount, type SweepPoint } from './sweepPlan';

interface Props {
  /** The presets swept (one panel each). */
  presets: readonly PresetInfo[];
  /** Reads a preset's JSON text. */
  readPreset: (file: string) => Promise<string>;
  /** Makes an engine worker for the sweep (disposed at the end). */
  createEngine: () => SweepEngine;
  group: string | null;
}

type Phase =
  | { phase: 'idle' }
  | { phase: 'running'; finished: number; total: number; workers: number }
  | { phase: 'done'; total: number; seconds: number }
  | { phase: 'cancelled'; finished: number; total: number }
  | { phase: 'failed'; message: string };

const FILE = 'qoslab-sweep';

export const SweepPanel = memo(function SweepPanel({ presets, readPreset, createEngine, group }: Props) {
  const [loadsText, setLoadsText] = useState(DEFAULT_LOADS.join(', '));
  const [durationText, setDurationText] = useState('');
  const [phase, setPhase] = useState<Phase>({ phase: 'idle' });
  const [plan, setPlan] = useState<{ titles: string[]; points: SweepPoint[] } | null>(null);
  const [results, setResults] = useState<Map<number, PointResult>>(new Map());
  const [fractions, setFractions] = useState<number[]>([]);
  const controller = useRef<AbortController | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const parsed = parseLoads(loadsText);
  const durationUs = durationText.trim() === '' ? null : Number(durationText);
  const durationError =
    durationUs !== null && !(Number.isInteger(durationUs) && durationUs >= 1 && durationUs <= 1e9)
      ? 'The duration per point must be a whole number of µs from 1 to 10^9 (or empty to keep each preset’s).'
      : null;
  const total = parsed.loads.length * presets.length;
  const tooMany = total > MAX_POINTS ? `At most ${MAX_POINTS} points (now ${total}).` : null;
  const problem = parsed.error ?? durationError ?? tooMany ?? (presets.length === 0 ? 'No presets to sweep.' : null);
  const running = phase.phase === 'running';

  const start = () => {
    if (problem || controller.current) return;
    const abort = new AbortController();
    controller.current = abort;
    const titles = presets.map((p) => p.title);
    const points = planPoints(presets.length, parsed.loads);
    const workers = workerCount(points.length, typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : 1);
    const engines: SweepEngine[] = [];
    const progress = new Array<number>(workers).fill(0);
    const started = performance.now();
    setPlan({ titles, points });
    setResults(new Map());
    setFractions(progress.slice());
    setPhase({ phase: 'running', finished: 0, total: points.length, workers });
    void (async () => {
      try {
        const texts = await Promise.all(presets.map((p) => readPreset(p.file).then((t) => withDuration(t, durationUs))));
        for (let k = 0; k < workers; k++) engines.push(createEngine());
        const outcomes = await runPoints<PointResult>(
          points,
          workers,
          async (point, slot, signal) => {
            const engine = engines[slot];
            const json = texts[point.preset];
            if (!engine || json === undefined) return { status: 'failed', message: 'no engine' };
            const outcome = await runAtLoad(engine, json, point.load, `${titles[point.preset]} at load ${point.load}`, (f) => (progress[slot] = f), signal);
            return outcome.status === 'done' ? { status: 'done', value: pointResult(point.load, outcome.value) } : outcome;
          },
          (point, outcome, finished) => {
            if (outcome.status === 'done') setResults((m) => new Map(m).set(point.index, outcome.value));
            setFractions(progress.slice());
            if (!abort.signal.aborted) setPhase({ phase: 'running', finished, total: points.length, workers });
          },
          abort.signal,
        );
        const failed = outcomes.find((o) => o.status === 'failed');
        const finished = outcomes.filter((o) => o.status === 'done').length;
        if (failed && failed.status === 'failed') setPhase({ phase: 'failed', message: failed.message });
        else if (abort.signal.aborted || finished < points.length) setPhase({ phase: 'cancelled', finished, total: points.length });
        else setPhase({ phase: 'done', total: points.length, seconds: (performance.now() - started) / 1000 });
      } catch (e) {
        setPhase({ phase: 'failed', message: e instanceof Error ? e.message : String(e) });
      } finally {
        for (const e of engines) e.dispose?.();
        if (controller.current === abort) controller.current = null;
      }
    })();
  };

  // Smooth progress while points run: poll the per-worker fractions.
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setFractions((f) => f.slice()), 250);
    return () => window.clearInterval(timer);
  }, [running]);

  const panels = useMemo(() => (plan ? sweepPanels(plan.titles, plan.points, results) : []), [plan, results]);
  const rows = useMemo(() => (plan ? sweepRows(plan.titles, plan.points, results) : []), [plan, results]);
  const classNames = rows[0]?.result.classes.map((c) => c.name) ?? [];
  const maxLoad = plan ? Math.max(...plan.points.map((p) => p.load)) : 1;
  const progressValue =
    phase.phase === 'running' && phase.total > 0
      ? Math.min(1, (phase.finished + fractions.reduce((a, b) => a + b, 0)) / phase.total)
      : 0;

  return (
    <div className="sweep-body">
      <p className="help">
        Every {group ?? ''} preset is scaled to each total offered load (class loads keep their proportions) and run with its
        own seed; one panel per scheduler, same axes.
      </p>
      <div className="grid sweep-form">
        <div className={`field${parsed.error ? ' has-error' : ''}`}>
          <label htmlFor="sweep-loads">Offered loads (fractions of the link)</label>
          <input
            id="sweep-loads"
            type="text"
            value={loadsText}
            aria-invalid={parsed.error ? true : undefined}
            aria-describedby={parsed.error ? 'sweep-loads-error' : 'sweep-loads-hint'}
            onChange={(e) => setLoadsText(e.target.value)}
          />
          <div className="hint" id="sweep-loads-hint">
            Separated by commas or spaces; {parsed.loads.length} loads × {presets.length} schedulers = {total} runs.
          </div>
          {parsed.error ? (
            <div className="field-error" id="sweep-loads-error">
              {parsed.error}
            </div>
          ) : null}
        </div>
        <div className={`field${durationError ? ' has-error' : ''}`}>
          <label htmlFor="sweep-duration">Duration per point (µs)</label>
          <input
            id="sweep-duration"
            type="number"
            min={1}
            step={1}
            placeholder="as in each preset"
            value={durationText}
            aria-invalid={durationError ? true : undefined}
            aria-describedby={durationError ? 'sweep-duration-error' : 'sweep-duration-hint'}
            onChange={(e) => setDurationText(e.target.value)}
          />
          <div className="hint" id="sweep-duration-hint">
            Empty keeps each preset’s duration; shorter is faster but noisier (the warm-up shrinks in proportion).
          </div>
          {durationError ? (
            <div className="field-error" id="sweep-duration-error">
              {durationError}
            </div>
          ) : null}
        </div>
      </div>
      {tooMany ? <div className="field-error">{tooMany}</div> : null}
      <div className="row">
        <button type="button" className="primary" disabled={problem !== null || running} onClick={start}>
          Run sweep
        </button>
        {phase.phase === 'running' ? (
          <button type="button" onClick={() => controller.current?.abort()}>
            Cancel sweep
          </button>
        ) : null}
        {phase.phase === 'running' ? (
          <span className="run-progress" data-testid="sweep-progress">
            <progress max={1} value={progressValue} aria-label="Sweep progress" />
            <span role="status">
              {phase.finished} of {phase.total} points ({phase.workers} {phase.workers === 1 ? 'worker' : 'workers'})
            </span>
          </span>
        ) : null}
        {phase.phase === 'done' ? (
          <span role="status" className="note" data-testid="sweep-status">
            Done: {phase.total} points in {phase.seconds.toFixed(1)} s.
          </span>
        ) : null}
        {phase.phase === 'cancelled' ? (
          <span role="status" className="note" data-testid="sweep-status">
            Cancelled: {phase.finished} of {phase.total} points finished.
          </span>
        ) : null}
        {phase.phase === 'failed' ? (
          <span role="status" className="run-status failed" data-testid="sweep-status">
            {phase.message}
          </span>
        ) : null}
      </div>
      {plan && rows.length > 0 ? (
        <>
          <section className="cdf-panel" aria-label="Throughput vs offered load">
            <div className="cdf-toolbar" role="group" aria-label="Sweep chart options">
              <ExportButtons svgRef={svgRef} filename={FILE} csv={() => sweepCsv(plan.titles, plan.points, results)} />
            </div>
            <div data-testid="sweep-chart">
              <PanelsChart
                panels={panels}
                xLabel="Offered load (fraction of link)"
                yLabel="Throughput (fraction of link)"
                title="Throughput per class vs offered load"
                xDomain={[0, maxLoad]}
                svgRef={svgRef}
              />
            </div>
          </section>
          <div className="table-scroll">
            <table className="results-table" data-testid="sweep-table">
              <caption>Throughput per class (% of the link) at each total offered load</caption>
              <thead>
                <tr>
                  <th scope="col">Scheduler</th>
                  <th scope="col">Offered load</th>
                  {classNames.map((n, i) => (
                    <th scope="col" key={i}>
                      <span className="swatch" style={{ background: colorFor(i) }} aria-hidden="true" />
                      {n}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map(({ title, point, result }) => (
                  <tr key={point.index}>
                    <th scope="row">{title}</th>
                    <td>{formatPercent(point.load)}</td>
                    {result.classes.map((c, i) => (
                      <td key={i}>{formatPercent(c.throughput)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </div>
  );
});
