// The decision animation: asks the engine worker for a trace of the scenario (N decisions
// from time T), then plays it: table(s) and pointer(s), queues, credits, counters, the
// packet leaving, the decision in words and the work it took. The trace is computed once;
// playing and stepping only move an index.
import { ENGINE_LIMITS } from '../generated/limits';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Engine } from '../engine/protocol';
import type { Scenario, Trace } from '../generated';
import { downloadText } from '../shared/download';
import { outcomeLines } from '../engine/outcome';
import { Controls } from './Controls';
import { explainDecision, glossaryFor } from './explain';
import { CountersPanel } from './CountersPanel';
import { largestPacket, schedulerName, stepView, workKinds, workText } from './model';
import { PortFigure } from './PortFigure';
import { TableFigure } from './TableFigure';
import { usePlayer } from './usePlayer';
import { useWidth } from './useWidth';
import './animation.css';

/** What the animation needs from the engine. */
export type TraceEngine = Pick<Engine, 'trace'>;

/** Default number of decisions traced. */
export const DEFAULT_DECISIONS = 200;
/** Most decisions one trace may hold (the engine's limit). */
export const MAX_DECISIONS = ENGINE_LIMITS.max_trace_decisions;

interface Props {
  engine: TraceEngine;
  scenario: Scenario;
  onClose: () => void;
}

type Loaded =
  | { phase: 'loading' }
  | { phase: 'failed'; lines: string[] }
  | { phase: 'ready'; trace: Trace; json: string; request: string };

/** The answer to one request (`key` names the scenario and settings asked for). */
type Answer = { key: string; loaded: Loaded };

/** Checks the settings; returns the problems (empty when they are fine). */
export function settingsProblems(decisions: string, fromUs: string, durationUs: number): string[] {
  const problems: string[] = [];
  const n = Number(decisions);
  if (decisions.trim() === '' || !Number.isInteger(n) || n < 1 || n > MAX_DECISIONS) {
    problems.push(`Decisions must be a whole number from 1 to ${MAX_DECISIONS}.`);
  }
  const t = Number(fromUs);
  if (fromUs.trim() === '' || !Number.isFinite(t) || t < 0 || !Number.isInteger(t)) {
    problems.push('From must be a whole number of µs, 0 or more.');
  } else if (t >= durationUs) {
    problems.push(`From must be before the end of the run (${durationUs} µs).`);
  }
  return problems;
}


export function AnimationView({ engine, scenario, onClose }: Props) {
  const scenarioJson = useMemo(() => JSON.stringify(scenario), [scenario]);
  const [decisions, setDecisions] = useState(String(DEFAULT_DECISIONS));
  const [fromUs, setFromUs] = useState(String(scenario.warmup_us));
  const [request, setRequest] = useState(() => ({ decisions: DEFAULT_DECISIONS, fromUs: scenario.warmup_us }));
  const [answer, setAnswer] = useState<Answer | null>(null);
  const problems = settingsProblems(decisions, fromUs, scenario.duration_us);
  // Opening the view moves the focus to its heading (screen readers announce where they are).
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const requestKey = `${request.decisions}@${request.fromUs}:${scenarioJson}`;
  // Loading until the answer to the current request arrives.
  const loaded: Loaded = answer !== null && answer.key === requestKey ? answer.loaded : { phase: 'loading' };
  useEffect(() => {
    let live = true;
    // Leaving the view or asking for another trace stops the one under way.
    const abort = new AbortController();
    const setLoaded = (l: Loaded) => setAnswer({ key: requestKey, loaded: l });
    engine.trace(scenarioJson, request.decisions, request.fromUs, abort.signal).then(
      (outcome) => {
        if (!live) return;
        if (outcome.status !== 'done') {
          setLoaded({ phase: 'failed', lines: outcomeLines(outcome) });
          return;
        }
        try {
          setLoaded({ phase: 'ready', trace: JSON.parse(outcome.traceJson) as Trace, json: outcome.traceJson, request: requestKey });
        } catch (e) {
          setLoaded({ phase: 'failed', lines: [`The engine's trace could not be read: ${String(e)}`] });
        }
      },
      (e: unknown) => {
        if (live) setLoaded({ phase: 'failed', lines: [`The engine could not be reached: ${String(e)}`] });
      },
    );
    return () => {
      live = false;
      abort.abort();
    };
  }, [engine, scenarioJson, request, requestKey]);

  const onTrace = () => {
    if (problems.length > 0) return;
    setRequest({ decisions: Number(decisions), fromUs: Number(fromUs) });
  };

  const trace = loaded.phase === 'ready' ? loaded.trace : null;

  return (
    <section className="panel animation" aria-labelledby="animation-title" data-testid="animation">
      <div className="panel-head">
        <h2 id="animation-title" ref={heading} tabIndex={-1}>
          Decision animation
        </h2>
        <button type="button" onClick={onClose}>
          Back to the lab
        </button>
      </div>
      <p className="anim-intro">
        {scenario.model.kind === 'link_lab' ? schedulerName(scenario.model.scheduler.kind) : 'The network'}: the scheduler's decisions one by one, computed once by the
        engine from a fresh run of the scenario. Queues and credits are as the scheduler saw them; counters are after
        the decision.
      </p>
      <form
        className="anim-settings"
        onSubmit={(e) => {
          e.preventDefault();
          onTrace();
        }}
      >
        <label>
          Decisions
          <input
            type="number"
            min={1}
            max={MAX_DECISIONS}
            step={1}
            value={decisions}
            onChange={(e) => setDecisions(e.target.value)}
            aria-describedby={problems.length > 0 ? 'anim-settings-problems' : undefined}
          />
        </label>
        <label>
          From (µs)
          <input
            type="number"
            min={0}
            step={1}
            value={fromUs}
            onChange={(e) => setFromUs(e.target.value)}
            aria-describedby={problems.length > 0 ? 'anim-settings-problems' : undefined}
          />
        </label>
        <button type="submit" className="primary" disabled={problems.length > 0 || loaded.phase === 'loading'}>
          Trace decisions
        </button>
        <button
          type="button"
          disabled={loaded.phase !== 'ready'}
          onClick={() => {
            if (loaded.phase === 'ready') downloadText('qoslab-trace.json', loaded.json);
          }}
        >
          Download trace (JSON)
        </button>
        {problems.length > 0 ? (
          <ul className="anim-problems" id="anim-settings-problems">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        ) : null}
      </form>
      {loaded.phase === 'loading' ? (
        <p role="status" className="placeholder">
          Tracing decisions in the engine…
        </p>
      ) : loaded.phase === 'failed' ? (
        <div role="alert" className="anim-failed">
          <p>The trace could not be computed.</p>
          <ul>
            {loaded.lines.map((l, i) => (
              <li key={i}>{l}</li>
            ))}
          </ul>
        </div>
      ) : trace && trace.decisions.length === 0 ? (
        <p role="status" className="placeholder">
          No decision was made from {request.fromUs} µs to the end of the run (no packet to send).
        </p>
      ) : trace ? (
        <Player trace={trace} traceKey={loaded.phase === 'ready' ? loaded.request : ''} />
      ) : null}
    </section>
  );
}

function isTextEntry(target: EventTarget): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
}

/** The figure and controls of a loaded trace. */
export function Player({ trace, traceKey }: { trace: Trace; traceKey: string }) {
  const total = trace.decisions.length;
  const player = usePlayer(total, traceKey);
  const { state } = player;
  const kinds = useMemo(() => workKinds(trace), [trace]);
  const largest = useMemo(() => largestPacket(trace), [trace]);
  const view = useMemo(() => stepView(trace, state.step, kinds), [trace, state.step, kinds]);
  const classNames = useMemo(() => trace.classes.map((c) => c.name), [trace]);
  const [portRef, portWidth] = useWidth();

  const { toggle, forward, back, first, last } = player;
  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLDivElement>) => {
      if (isTextEntry(e.target)) return;
      const onButton = e.target instanceof HTMLButtonElement;
      switch (e.key) {
        case ' ':
        case 'Spacebar':
          if (onButton) return; // the button's own activation
          toggle();
          break;
        case 'ArrowRight':
          forward();
          break;
        case 'ArrowLeft':
          back();
          break;
        case 'Home':
          first();
          break;
        case 'End':
          last();
          break;
        default:
          return;
      }
      e.preventDefault();
    },
    [toggle, forward, back, first, last],
  );

  if (!view) return null;
  const why = explainDecision(trace, view.step);
  const announce = state.playing ? `Playing at ${player.speed} decisions per second` : `${view.text}. ${why}`;
  return (
    <div
      className="anim-player"
      tabIndex={0}
      onKeyDown={onKeyDown}
      aria-label="Decision animation: Space plays or pauses, Left and Right arrows step, Home and End go to the first and last decision"
      data-testid="anim-player"
      data-step={view.step}
    >
      <Controls player={player} total={total} />
      <p className="anim-text" data-testid="anim-text">
        {view.text}
      </p>
      <p className="anim-why" data-testid="anim-why">
        <strong>Why:</strong> {why}
      </p>
      <p className="visually-hidden" aria-live="polite" data-testid="anim-live">
        {announce}
      </p>
      <div className="anim-figures">
        {view.tables.length > 0 ? (
          <div className={`anim-tables n${view.tables.length}`}>
            {view.tables.map((t) => (
              <TableFigure key={t.side} table={t} classNames={classNames} />
            ))}
          </div>
        ) : null}
        <div className="anim-port-wrap" ref={portRef}>
          <PortFigure view={view} phase={state.phase} largest={largest} width={portWidth ?? undefined} />
          <p className="anim-time">
            t = {view.timeNs.toFixed(1)} ns; on the link until {view.endNs.toFixed(1)} ns ({trace.link_rate_gbps} Gb/s)
          </p>
        </div>
      </div>
      <CountersPanel view={view} kind={trace.scheduler} workText={workText(view.work)} />
      <Glossary kind={trace.scheduler} />
    </div>
  );
}

/** What the registers of the figure mean, for this scheduler. */
function Glossary({ kind }: { kind: string }) {
  return (
    <details className="anim-glossary" data-testid="anim-glossary" open>
      <summary>Glossary of the registers</summary>
      <dl>
        {glossaryFor(kind).map((g) => (
          <div key={g.term}>
            <dt>{g.term}</dt>
            <dd>{g.text}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
