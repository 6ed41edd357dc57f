// Messages between the UI thread and the engine worker (shared types only, no code
// that runs in either place).
import type { EngineError, WorkEstimate } from '../generated';

/** Progress of a run, reported by the worker a few times a second. */
export interface RunProgress {
  /** Fraction of simulated time done, 0..1. */
  fraction: number;
  /** Events processed so far. */
  events: number;
  /** Wall-clock time since the run started, in ms. */
  elapsedMs: number;
}

/** How a run ended. */
export type RunOutcome =
  /** Finished: `resultsJson` is the engine's results JSON, byte-identical to `qoslab run`. */
  | { status: 'done'; resultsJson: string; events: number; elapsedMs: number }
  /** Stopped by `cancel()`. */
  | { status: 'cancelled' }
  /** The scenario was refused; `error` names every problem. */
  | { status: 'invalid'; error: EngineError }
  /** The run went over its run-time budget (packets held, events) and stopped; `error` names the figure. */
  | { status: 'stopped'; error: EngineError }
  /** The engine crashed (a bug), ran out of memory or stopped answering; the worker was replaced. */
  | { status: 'crashed'; message: string };

/** What `load` gives back: the canonical current-version scenario JSON, or why it was refused. */
export type LoadOutcome = { ok: true; scenarioJson: string } | { ok: false; error: EngineError };

/** What `serviceList` gives back: the list of class indices, or why it was refused. */
export type ServiceListOutcome =
  | { ok: true; list: number[] }
  | { ok: false; error: EngineError; crashed?: boolean };

/** What `atLoad` gives back: the scenario JSON scaled to a total load, or why it was refused. */
export type AtLoadOutcome = { ok: true; scenarioJson: string } | { ok: false; error: EngineError; crashed?: boolean };

/** What `trace` gives back: the engine's trace JSON (as `qoslab trace` writes it), or why not. */
export type TraceOutcome =
  | { status: 'done'; traceJson: string }
  /** The scenario was refused; `error` names every problem. */
  | { status: 'invalid'; error: EngineError }
  /** The engine crashed (a bug); the worker must be replaced. */
  | { status: 'crashed'; message: string };

/** What `design` gives back: the engine's `Design` JSON, or why the requirements were refused. */
export type DesignOutcome = { ok: true; designJson: string } | { ok: false; error: EngineError; crashed?: boolean };

/** What `opensmExport` gives back: OpenSM `qos_*` lines, or why not. */
export type OpenSmExportOutcome = { ok: true; lines: string } | { ok: false; error: EngineError; crashed?: boolean };

/** What `opensmParse` gives back: the options per prefix and the lints as JSON, or the errors (naming line and entry). */
export type OpenSmParseOutcome = { ok: true; json: string } | { ok: false; error: EngineError; crashed?: boolean };

/** What `evaluate` gives back: the engine's `Evaluation` JSON of a table, or why not. */
export type EvaluateOutcome = { ok: true; evaluationJson: string } | { ok: false; error: EngineError; crashed?: boolean };

/** What `workEstimate` gives back: the work a run of the scenario is expected to do, or why the scenario was refused. */
export type WorkEstimateOutcome = { ok: true; estimate: WorkEstimate } | { ok: false; error: EngineError; crashed?: boolean };
