// The engine's Web Worker: owns the WebAssembly instance and runs scenarios in slices
// of a few milliseconds, yielding between slices so progress can be reported and a
// cancel request can arrive. The UI thread never simulates.
import * as Comlink from 'comlink';
import init, {
  Simulation,
  design_export,
  design_opensm,
  opafm_import,
  design_table,
  engine_version,
  evaluate_table,
  load_scenario,
  mean_ci90,
  opensm_parse,
  parse_frame_trace,
  scenario_at_load,
  service_list,
  take_panic_message,
  scenario_work_estimate,
  trace_scenario,
  validate_scenario,
} from '../wasm-pkg/qoslab_wasm.js';
import type { EngineError, WorkEstimate } from '../generated';
import type {
  AtLoadOutcome,
  DesignOutcome,
  EvaluateOutcome,
  LoadOutcome,
  OpenSmExportOutcome,
  OpenSmParseOutcome,
  RunOutcome,
  RunProgress,
  ServiceListOutcome,
  TraceOutcome,
  WorkEstimateOutcome,
} from './protocol';

const ready = init();

/** Wall-clock budget of one slice of simulation before yielding, in ms. */
const SLICE_MS = 20;
/** Minimum interval between progress reports, in ms. */
const REPORT_MS = 50;

let activeRun = 0;
let cancelledRun = -1;

function isEngineError(e: unknown): e is EngineError {
  return typeof e === 'object' && e !== null && 'kind' in e;
}

/** Runs a thin engine call: its answer, the `EngineError` it threw, or a crash (a panic). */
function answer<T extends { ok: true }>(call: () => T): T | { ok: false; error: EngineError; crashed?: boolean } {
  try {
    return call();
  } catch (e) {
    if (isEngineError(e)) return { ok: false, error: e };
    return { ok: false, crashed: true, error: { kind: 'internal', message: take_panic_message() ?? String(e) } };
  }
}

const yieldToEvents = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const api = {
  /** Engine name and version. */
  async version(): Promise<string> {
    await ready;
    return engine_version();
  },

  /** Every problem of a scenario, or null when it is valid. */
  async validate(scenarioJson: string): Promise<EngineError | null> {
    await ready;
    return JSON.parse(validate_scenario(scenarioJson)) as EngineError | null;
  },

  /**
   * Reads a scenario from a link or file: migrates older versions, validates, and returns
   * the canonical scenario JSON, or the error naming every problem.
   */
  async load(scenarioJson: string): Promise<LoadOutcome> {
    await ready;
    try {
      return { ok: true, scenarioJson: load_scenario(scenarioJson) };
    } catch (e) {
      if (isEngineError(e)) return { ok: false, error: e };
      return { ok: false, error: { kind: 'internal', message: take_panic_message() ?? String(e) } };
    }
  },

  /**
   * A weighted round-robin service list (class index per slot, `sum(weights)` slots) of
   * `kind` (simple, uniform, wf2q) for integer weights: fills a table from weights.
   */
  async serviceList(kind: string, weights: number[]): Promise<ServiceListOutcome> {
    await ready;
    try {
      return { ok: true, list: JSON.parse(service_list(kind, JSON.stringify(weights))) as number[] };
    } catch (e) {
      if (isEngineError(e)) return { ok: false, error: e };
      return { ok: false, crashed: true, error: { kind: 'internal', message: take_panic_message() ?? String(e) } };
    }
  },

  /** The work a run of the scenario is expected to do (the engine's estimate, as validation checks it). */
  async workEstimate(scenarioJson: string): Promise<WorkEstimateOutcome> {
    await ready;
    return answer(() => ({ ok: true as const, estimate: JSON.parse(scenario_work_estimate(scenarioJson)) as WorkEstimate }));
  },

  /** The scenario with every class load scaled in proportion so they sum to `totalLoad`. */
  async atLoad(scenarioJson: string, totalLoad: number): Promise<AtLoadOutcome> {
    await ready;
    try {
      return { ok: true, scenarioJson: scenario_at_load(scenarioJson, totalLoad) };
    } catch (e) {
      if (isEngineError(e)) return { ok: false, error: e };
      return { ok: false, crashed: true, error: { kind: 'internal', message: take_panic_message() ?? String(e) } };
    }
  },

  /**
   * Mean and 90% confidence half-width of each list of independent replications' values,
   * as the engine's sweeps compute them (Student's t): `[mean, half]`, NaN where none.
   */
  async meanCi90(samples: number[][]): Promise<number[][]> {
    await ready;
    return samples.map((values) => Array.from(mean_ci90(Float64Array.from(values))));
  },

  /**
   * Checks a video frame-size trace and summarises it (the engine's `parse_frame_trace`):
   * JSON `{ok: true, frames, mean_bytes, ...}` or `{ok: false, line, message}`.
   */
  async frameTrace(text: string, frameIntervalUs: number): Promise<string> {
    await ready;
    return parse_frame_trace(text, frameIntervalUs);
  },

  /** Designs an arbitration table for requirements JSON (the engine's `design`). */
  async design(requirementsJson: string): Promise<DesignOutcome> {
    await ready;
    return answer(() => ({ ok: true as const, designJson: design_table(requirementsJson) }));
  },

  /** Evaluates a table (`DesignEntry` list JSON) against requirements JSON (the engine's `evaluate`). */
  async evaluate(requirementsJson: string, tableJson: string): Promise<EvaluateOutcome> {
    await ready;
    return answer(() => ({ ok: true as const, evaluationJson: evaluate_table(requirementsJson, tableJson) }));
  },

  /** The OpenSM `qos_*` lines of an InfiniBand design JSON (its table may be edited). */
  async opensmExport(designJson: string): Promise<OpenSmExportOutcome> {
    await ready;
    return answer(() => ({ ok: true as const, lines: design_opensm(designJson) }));
  },

  /** A design JSON as a fabric manager's configuration (`opensm`, `opafm`, `opafm-fragment`, `ets`), as `qoslab design --format` prints it. */
  async designExport(designJson: string, format: string): Promise<OpenSmExportOutcome> {
    await ready;
    return answer(() => ({ ok: true as const, lines: design_export(designJson, format) }));
  },

  /** Reads an opafm.xml into requirements JSON (keeping the current form's table settings). */
  async opafmImport(text: string, requirementsJson: string): Promise<OpenSmParseOutcome> {
    await ready;
    return answer(() => ({ ok: true as const, json: opafm_import(text, requirementsJson) }));
  },

  /** Reads OpenSM `qos_*` lines: the options per prefix and the lints, as JSON. */
  async opensmParse(text: string): Promise<OpenSmParseOutcome> {
    await ready;
    return answer(() => ({ ok: true as const, json: opensm_parse(text) }));
  },

  /** Runs a scenario to the end (or until `cancel`), reporting progress. */
  async run(scenarioJson: string, onProgress: (p: RunProgress) => void): Promise<RunOutcome> {
    await ready;
    const runId = ++activeRun;
    const started = performance.now();
    let sim: Simulation;
    try {
      sim = new Simulation(scenarioJson);
    } catch (e) {
      if (isEngineError(e)) return { status: 'invalid', error: e };
      return { status: 'crashed', message: take_panic_message() ?? String(e) };
    }
    try {
      let chunk = 10_000;
      let lastReport = 0;
      for (;;) {
        const sliceStart = performance.now();
        let done = false;
        while (!done && performance.now() - sliceStart < SLICE_MS) {
          done = sim.advance(chunk);
        }
        // Aim for about 8 advance() calls per slice.
        const spent = Math.max(performance.now() - sliceStart, 0.1);
        chunk = Math.max(1_000, Math.min(2_000_000, Math.round((chunk * SLICE_MS) / spent / 8) * 8));
        const now = performance.now();
        if (done) {
          const events = sim.events();
          onProgress({ fraction: 1, events, elapsedMs: now - started });
          return { status: 'done', resultsJson: sim.results_json(), events, elapsedMs: now - started };
        }
        if (now - lastReport >= REPORT_MS) {
          lastReport = now;
          onProgress({ fraction: sim.progress(), events: sim.events(), elapsedMs: now - started });
        }
        await yieldToEvents();
        if (cancelledRun === runId) return { status: 'cancelled' };
      }
    } catch (e) {
      // A run over its run-time budget throws an EngineError of kind `budget`.
      if (isEngineError(e)) return { status: 'stopped', error: e };
      return { status: 'crashed', message: take_panic_message() ?? String(e) };
    } finally {
      try {
        sim.free();
      } catch {
        // After a crash the instance is poisoned; the client replaces the worker.
      }
    }
  },

  /**
   * The scheduler's first `decisions` decisions at or after `fromUs` µs of a fresh run of
   * the scenario (the engine's trace JSON).
   */
  async trace(scenarioJson: string, decisions: number, fromUs: number): Promise<TraceOutcome> {
    await ready;
    try {
      return { status: 'done', traceJson: trace_scenario(scenarioJson, decisions, fromUs) };
    } catch (e) {
      if (isEngineError(e)) return { status: 'invalid', error: e };
      return { status: 'crashed', message: take_panic_message() ?? String(e) };
    }
  },

  /** Stops the current run at its next yield. */
  cancel(): void {
    cancelledRun = activeRun;
  },
};

export type EngineApi = typeof api;

Comlink.expose(api);
