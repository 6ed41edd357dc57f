// The network processor's decision animation (PCFQ, separate WFQ; any NpScheduler that
// explains itself): asks the engine worker for the trace of a preset (N dispatches from time
// T), then steps through it: the decision in words, the candidates and their keys, the
// scheduler's clock (virtual time, summed weights, prediction), predicted against actual
// cost, the engines, the transmit queue and the link.
import { useEffect, useMemo, useState } from 'react';
import type { Engine } from '../engine/protocol';
import { outcomeLines } from '../engine/outcome';
import type { NpTrace } from '../generated';
import { fetchText } from '../presets/presets';
import { downloadText } from '../shared/download';
import { decisionsHash, parseDecisionsHash, type DecisionsRequest } from './route';
import './npdecisions.css';

type Loaded = { phase: 'loading' } | { phase: 'failed'; lines: string[] } | { phase: 'ready'; trace: NpTrace; json: string };

const PRESETS = [
  { preset: 'r6-pcfq', label: 'PCFQ (R6)' },
  { preset: 'r6-wfq', label: 'Separate WFQ (R6)' },
  { preset: 'r5-violations-heap', label: 'DWCS heap (R5)' },
  { preset: 'r5-violations-hilq', label: 'DWCS HILQ (R5)' },
];

export function NpDecisionsView({ engine, hash, read = fetchText }: { engine: Pick<Engine, 'trace'>; hash: string; read?: (url: string) => Promise<string> }) {
  const [request, setRequest] = useState<DecisionsRequest>(() => parseDecisionsHash(hash));
  const [answer, setAnswer] = useState<{ key: string; loaded: Loaded } | null>(null);
  const [step, setStep] = useState(0);
  const [playing, setPlaying] = useState(false);
  const key = decisionsHash(request);
  const loaded: Loaded = answer?.key === key ? answer.loaded : { phase: 'loading' };
  useEffect(() => {
    let live = true;
    const abort = new AbortController();
    const set = (l: Loaded) => live && setAnswer({ key, loaded: l });
    read(`presets/${request.preset}.json`)
      .then((text) => engine.trace(text, request.decisions, request.fromUs, abort.signal))
      .then(
        (outcome) => {
          if (outcome.status !== 'done') return set({ phase: 'failed', lines: outcomeLines(outcome) });
          const trace = JSON.parse(outcome.traceJson) as NpTrace;
          if (!Array.isArray(trace.steps)) return set({ phase: 'failed', lines: ['This preset is not a network processor: its decisions are animated in the link lab.'] });
          setStep(0);
          set({ phase: 'ready', trace, json: outcome.traceJson });
        },
        (e: unknown) => set({ phase: 'failed', lines: [`The trace could not be made: ${String(e)}`] }),
      );
    return () => {
      live = false;
      abort.abort();
    };
  }, [engine, read, request, key]);
  useEffect(() => {
    if (window.location.hash !== `#${key}`) window.history.replaceState(null, '', `#${key}`);
  }, [key]);
  const total = loaded.phase === 'ready' ? loaded.trace.steps.length : 0;
  // Playing stops by itself at the last decision.
  const running = playing && step + 1 < total;
  useEffect(() => {
    if (!running) return;
    const id = window.setInterval(() => setStep((s) => (s + 1 < total ? s + 1 : s)), 1500);
    return () => window.clearInterval(id);
  }, [running, total]);
  return (
    <main className="np-decisions" aria-label="Network-processor decisions">
      <section className="panel">
        <h2>How the scheduler decides</h2>
        <p className="help">
          One dispatch at a time: which flow's head packet goes to a free server (a processing engine, or the link for DWCS), and why. For PCFQ and WFQ the engine knows
          each packet's actual cycles; the scheduler only its prediction until processing ends.
        </p>
        <div className="np-decisions-controls">
          <label>
            Scheduler{' '}
            <select value={request.preset} onChange={(e) => setRequest({ ...request, preset: e.target.value })}>
              {PRESETS.map((p) => (
                <option key={p.preset} value={p.preset}>
                  {p.label}
                </option>
              ))}
              {PRESETS.some((p) => p.preset === request.preset) ? null : <option value={request.preset}>{request.preset}</option>}
            </select>
          </label>
          <label>
            From (µs){' '}
            <input type="number" min={0} step={100} value={request.fromUs} onChange={(e) => setRequest({ ...request, fromUs: Math.max(0, Math.round(Number(e.target.value) || 0)) })} />
          </label>
        </div>
      </section>
      {loaded.phase === 'loading' ? (
        <p role="status">Tracing the decisions…</p>
      ) : loaded.phase === 'failed' ? (
        <div role="alert" className="error">
          {loaded.lines.map((l) => (
            <p key={l}>{l}</p>
          ))}
        </div>
      ) : (
        <Player trace={loaded.trace} json={loaded.json} step={Math.min(step, total - 1)} setStep={setStep} playing={running} setPlaying={setPlaying} name={request.preset} />
      )}
    </main>
  );
}

function Player({
  trace,
  json,
  step,
  setStep,
  playing,
  setPlaying,
  name,
}: {
  trace: NpTrace;
  json: string;
  step: number;
  setStep: (f: (s: number) => number) => void;
  playing: boolean;
  setPlaying: (p: boolean) => void;
  name: string;
}) {
  const s = trace.steps[step];
  const groups = useMemo(() => trace.streams.map((x) => x.group), [trace]);
  if (!s) return <p role="status">The run ended before any dispatch at or after this time.</p>;
  const e = s.explanation;
  const most = Math.max(s.actual_cycles, s.predicted_cycles ?? 0, 1);
  return (
    <section className="panel np-decisions-player" data-testid="np-decisions">
      <div className="np-decisions-controls" role="group" aria-label="Step through the decisions">
        <button type="button" onClick={() => setStep((i) => Math.max(0, i - 1))} disabled={step === 0}>
          ◀ Previous
        </button>
        <button type="button" onClick={() => setPlaying(!playing)} aria-pressed={playing}>
          {playing ? 'Pause' : 'Play'}
        </button>
        <button type="button" onClick={() => setStep((i) => Math.min(trace.steps.length - 1, i + 1))} disabled={step + 1 >= trace.steps.length}>
          Next ▶
        </button>
        <span data-testid="np-decisions-step">
          Decision {step + 1} of {trace.steps.length} at {(s.time_ns / 1000).toFixed(3)} µs ({trace.scheduler})
        </span>
        <button type="button" onClick={() => downloadText(`qoslab-${name}-decisions.json`, json)}>
          Download trace (JSON)
        </button>
      </div>
      <p className="np-decisions-words" aria-live="polite" data-testid="np-decisions-words">
        {s.words}
      </p>
      <div className="np-decisions-grid">
        {e ? (
          <div>
            <h3>Candidates: {e.key_name}</h3>
            <div className="table-scroll">
            <table className="results-table" data-testid="np-decisions-candidates">
              <thead>
                <tr>
                  <th scope="col">Flow</th>
                  <th scope="col">Category</th>
                  <th scope="col">{e.key_name}</th>
                </tr>
              </thead>
              <tbody>
                {e.candidates.map((c) => (
                  <tr key={c.stream} className={c.stream === s.stream ? 'np-chosen' : undefined}>
                    <th scope="row">
                      {c.stream}
                      {c.stream === s.stream ? ' ✔ chosen' : ''}
                    </th>
                    <td>{groups[c.stream]}</td>
                    <td>{c.key.toFixed(3)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            </div>
            <dl className="np-decisions-values">
              {e.values.map((v) => (
                <div key={v.name}>
                  <dt>{v.name}</dt>
                  <dd>{v.value.toFixed(3)}</dd>
                </div>
              ))}
            </dl>
          </div>
        ) : null}
        {trace.engines === 0 ? (
          <p>The link is the server: the scheduler is asked whenever it is free.</p>
        ) : (
        <div>
          <h3>Processing cost: predicted against actual</h3>
          <svg className="np-cost-bars" viewBox="0 0 300 64" role="img" aria-label={`Predicted ${s.predicted_cycles?.toFixed(0) ?? 'none'} cycles, actual ${s.actual_cycles} cycles`}>
            <rect x={90} y={6} height={20} width={(210 * (s.predicted_cycles ?? 0)) / most} fill="#4c78a8" />
            <text x={0} y={21} fontSize={12}>
              predicted
            </text>
            <rect x={90} y={36} height={20} width={(210 * s.actual_cycles) / most} fill="#e45756" />
            <text x={0} y={51} fontSize={12}>
              actual
            </text>
          </svg>
          <h3>Engines, transmit queue, link</h3>
          <div className="np-engines" role="img" aria-label={`${s.engines_busy} of ${trace.engines} engines busy; ${s.transmit_queue} packets in the transmit queue; link ${s.link_busy ? 'busy' : 'idle'}`}>
            {Array.from({ length: trace.engines }, (_, i) => (
              <span key={i} className={i < s.engines_busy ? 'np-engine busy' : 'np-engine'}>
                E{i + 1}
              </span>
            ))}
            <span className="np-arrow">→</span>
            <span className="np-fifo">FIFO {s.transmit_queue}</span>
            <span className="np-arrow">→</span>
            <span className={s.link_busy ? 'np-link busy' : 'np-link'}>link {s.link_busy ? 'busy' : 'idle'}</span>
          </div>
        </div>
        )}
      </div>
    </section>
  );
}
