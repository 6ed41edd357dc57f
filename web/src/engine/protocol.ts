// What the UI thread and the engine worker say to each other: the engine's API (what the
// worker implements and the client forwards) and the one shape every answer takes. Types
// only, no code that runs in either place, so the worker (webworker lib) and the page (DOM
// lib) each compile it.
import type {
  Axis,
  EngineError,
  FrameTraceCheck,
  OpenSmParsed,
  SchedulerConfig,
  SchedulerWeights,
  StartingRequest,
  WeightsRequest,
  WorkEstimate,
} from '../generated';

/** Progress of a run, reported by the worker a few times a second. */
export interface RunProgress {
  /** Fraction of simulated time done, 0..1. */
  fraction: number;
  /** Events processed so far. */
  events: number;
  /** Wall-clock time since the run started, in ms. */
  elapsedMs: number;
}

/**
 * How every engine call ends: `done` with its answer's fields, or why not. Quick calls
 * only end `done`, `invalid` or `crashed`; runs and traces may also be `cancelled`, and a
 * run may be `stopped` by its run-time budget.
 */
export type Outcome<T extends object> =
  | ({ status: 'done' } & T)
  /** Stopped by an AbortSignal (or `cancel()`). */
  | { status: 'cancelled' }
  /** The input was refused; `error` names every problem. */
  | { status: 'invalid'; error: EngineError }
  /** The run went over its run-time budget (packets held, events) and stopped; `error` names the figure. */
  | { status: 'stopped'; error: EngineError }
  /** The engine crashed (a bug), ran out of memory or stopped answering; the worker was replaced. */
  | { status: 'crashed'; message: string };

/** An outcome that is not `done`. */
export type Unfinished = Exclude<Outcome<object>, { status: 'done' }>;

/** A run: the engine's results JSON, byte-identical to `qoslab run`. */
export type RunOutcome = Outcome<{ resultsJson: string; events: number; elapsedMs: number }>;
/** A decision trace: the engine's trace JSON (as `qoslab trace` writes it). */
export type TraceOutcome = Outcome<{ traceJson: string }>;
/** A scenario read from a link or file: the canonical current-version scenario JSON. */
export type LoadOutcome = Outcome<{ scenarioJson: string }>;
/** A service list: class index per slot. */
export type ServiceListOutcome = Outcome<{ list: number[] }>;
/** A scheduler's starting configuration of another kind (the engine's `starting_scheduler`). */
export type StartingOutcome = Outcome<{ config: SchedulerConfig }>;
/** A scheduler's per-class weights and shares (the engine's `scheduler_weights`; null for kinds without). */
export type WeightsOutcome = Outcome<SchedulerWeights>;
/** The scenario JSON scaled to a total load. */
export type AtLoadOutcome = Outcome<{ scenarioJson: string }>;
/** The engine's `Design` JSON. */
export type DesignOutcome = Outcome<{ designJson: string }>;
/** The engine's `Evaluation` JSON of a table. */
export type EvaluateOutcome = Outcome<{ evaluationJson: string }>;
/** A fabric manager's configuration text (OpenSM lines, opafm.xml, a tc command). */
export type ExportOutcome = Outcome<{ lines: string }>;
/** OpenSM lines read: the options per prefix and the lints. */
export type OpenSmParseOutcome = Outcome<{ parsed: OpenSmParsed }>;
/** An opafm.xml read into requirements JSON. */
export type OpafmImportOutcome = Outcome<{ requirementsJson: string }>;
/** The work a run of the scenario is expected to do. */
export type WorkEstimateOutcome = Outcome<{ estimate: WorkEstimate }>;
/** An uploaded frame-size trace checked: its summary, or the line and rule that refuse it. */
export type FrameTraceOutcome = Outcome<{ check: FrameTraceCheck }>;

/**
 * The engine as the UI uses it: every method of the worker, each answering an
 * {@link Outcome} (an `EngineClient`, or `fakeEngine()` in tests). Long calls take an
 * AbortSignal.
 */
export interface Engine {
  /** Engine name and version. */
  version(): Promise<string>;
  /** Every problem of a scenario (JSON text), or null when it is valid. */
  validate(scenarioJson: string): Promise<EngineError | null>;
  /** Migrates and validates a scenario from a link or file. */
  load(scenarioJson: string): Promise<LoadOutcome>;
  /** The work a run of the scenario is expected to do (as validation checks it). */
  workEstimate(scenarioJson: string): Promise<WorkEstimateOutcome>;
  /** A weighted round-robin service list of `kind` (simple, uniform, wf2q) for integer weights. */
  serviceList(kind: string, weights: number[]): Promise<ServiceListOutcome>;
  /**
   * The configuration a port's scheduler starts as when switched to `request.kind`, keeping
   * the shares, tables or priority order of `request.from` (the engine's apportionment and
   * interleaving; the web keeps no copy).
   */
  startingScheduler(request: StartingRequest): Promise<StartingOutcome>;
  /**
   * The per-class weights and shares of `request.scheduler` over `request.classes`, for
   * the share table under a scheduler (the engine's own weights: an AS basic table's
   * entries × mean packet size, the bounded Pareto mean among them; the web keeps no copy).
   */
  schedulerWeights(request: WeightsRequest): Promise<WeightsOutcome>;
  /** The scenario with every class load scaled in proportion so they sum to `totalLoad`. */
  atLoad(scenarioJson: string, totalLoad: number): Promise<AtLoadOutcome>;
  /**
   * The scenario at `value` along a sweep axis (`load` as `atLoad`; `streams`, `packet_bytes`:
   * a network processor's stream count or packet size at the same U, as `qoslab sweep --axis`).
   */
  atPoint(scenarioJson: string, axis: Axis, value: number): Promise<AtLoadOutcome>;
  /** Mean and 90% confidence half-width of each list of replications' values (`[mean, half]`, NaN where none). */
  meanCi90(samples: number[][]): Promise<number[][]>;
  /** Checks and summarises a video frame-size trace at one frame every `frameIntervalUs`. */
  frameTrace(text: string, frameIntervalUs: number): Promise<FrameTraceOutcome>;
  /** Designs an arbitration table for requirements JSON. */
  design(requirementsJson: string, signal?: AbortSignal): Promise<DesignOutcome>;
  /** Evaluates a table (`DesignEntry` list JSON) against requirements JSON. */
  evaluate(requirementsJson: string, tableJson: string, signal?: AbortSignal): Promise<EvaluateOutcome>;
  /** The OpenSM `qos_*` lines of an InfiniBand design JSON (its table may be edited). */
  opensmExport(designJson: string): Promise<ExportOutcome>;
  /** A design JSON as a fabric manager's configuration (`opensm`, `opafm`, `opafm-fragment`, `ets`). */
  designExport(designJson: string, format: string): Promise<ExportOutcome>;
  /** Reads an opafm.xml into requirements JSON (keeping the current form's table settings). */
  opafmImport(text: string, requirementsJson: string): Promise<OpafmImportOutcome>;
  /** Reads OpenSM `qos_*` lines. */
  opensmParse(text: string): Promise<OpenSmParseOutcome>;
  /** Runs a scenario to the end, reporting progress; aborting `signal` cancels it. */
  run(scenarioJson: string, onProgress: (p: RunProgress) => void, signal?: AbortSignal): Promise<RunOutcome>;
  /** The scheduler's first `decisions` decisions at or after `fromUs` µs of a fresh run; aborting `signal` cancels it. */
  trace(scenarioJson: string, decisions: number, fromUs: number, signal?: AbortSignal): Promise<TraceOutcome>;
}

/**
 * What the worker exposes (through Comlink): the engine (its methods take no AbortSignal:
 * the client handles those) plus `cancel`, which stops the current run at its next yield.
 */
export interface WorkerApi extends Engine {
  cancel(): void;
}
