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
  scenario_at_point,
  service_list,
  scheduler_weights,
  starting_scheduler,
  take_panic_message,
  scenario_work_estimate,
  trace_scenario,
  validate_scenario,
} from '../wasm-pkg/qoslab_wasm.js';
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
import type { Outcome, RunProgress, WorkerApi } from './protocol';

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

/** What a thrown value means: the engine refused (or stopped on its budget), or it crashed (a panic). */
function failure(e: unknown): Exclude<Outcome<object>, { status: 'done' | 'cancelled' }> {
  if (isEngineError(e)) return e.kind === 'budget' ? { status: 'stopped', error: e } : { status: 'invalid', error: e };
  return { status: 'crashed', message: take_panic_message() ?? String(e) };
}

/** The one wrapper of every engine call: its answer, or the outcome of what it threw. */
async function call<T extends object>(answer: () => T): Promise<Outcome<T>> {
  await ready;
  try {
    return { status: 'done', ...answer() };
  } catch (e) {
    return failure(e);
  }
}

const yieldToEvents = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const api: WorkerApi = {
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
  load(scenarioJson: string) {
    return call(() => ({ scenarioJson: load_scenario(scenarioJson) }));
  },

  /**
   * A weighted round-robin service list (class index per slot, `sum(weights)` slots) of
   * `kind` (simple, uniform, wf2q) for integer weights: fills a table from weights.
   */
  serviceList(kind: string, weights: number[]) {
    return call(() => ({ list: JSON.parse(service_list(kind, JSON.stringify(weights))) as number[] }));
  },

  /** A scheduler's starting configuration of another kind (the engine's `starting_scheduler`). */
  startingScheduler(request: StartingRequest) {
    return call(() => ({ config: JSON.parse(starting_scheduler(JSON.stringify(request))) as SchedulerConfig }));
  },

  /** A scheduler's per-class weights and shares (the engine's `scheduler_weights`). */
  schedulerWeights(request: WeightsRequest) {
    return call(() => JSON.parse(scheduler_weights(JSON.stringify(request))) as SchedulerWeights);
  },

  /** The work a run of the scenario is expected to do (the engine's estimate, as validation checks it). */
  workEstimate(scenarioJson: string) {
    return call(() => ({ estimate: JSON.parse(scenario_work_estimate(scenarioJson)) as WorkEstimate }));
  },

  /** The scenario with every class load scaled in proportion so they sum to `totalLoad`. */
  atLoad(scenarioJson: string, totalLoad: number) {
    return call(() => ({ scenarioJson: scenario_at_load(scenarioJson, totalLoad) }));
  },

  /** The scenario at `value` along a sweep axis (the engine's `sweep::at_point`). */
  atPoint(scenarioJson: string, axis: Axis, value: number) {
    return call(() => ({ scenarioJson: scenario_at_point(scenarioJson, axis, value) }));
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
  frameTrace(text: string, frameIntervalUs: number) {
    return call(() => ({ check: JSON.parse(parse_frame_trace(text, frameIntervalUs)) as FrameTraceCheck }));
  },

  /** Designs an arbitration table for requirements JSON (the engine's `design`). */
  design(requirementsJson: string) {
    return call(() => ({ designJson: design_table(requirementsJson) }));
  },

  /** Evaluates a table (`DesignEntry` list JSON) against requirements JSON (the engine's `evaluate`). */
  evaluate(requirementsJson: string, tableJson: string) {
    return call(() => ({ evaluationJson: evaluate_table(requirementsJson, tableJson) }));
  },

  /** The OpenSM `qos_*` lines of an InfiniBand design JSON (its table may be edited). */
  opensmExport(designJson: string) {
    return call(() => ({ lines: design_opensm(designJson) }));
  },

  /** A design JSON as a fabric manager's configuration (`opensm`, `opafm`, `opafm-fragment`, `ets`), as `qoslab design --format` prints it. */
  designExport(designJson: string, format: string) {
    return call(() => ({ lines: design_export(designJson, format) }));
  },

  /** Reads an opafm.xml into requirements JSON (keeping the current form's table settings). */
  opafmImport(text: string, requirementsJson: string) {
    return call(() => ({ requirementsJson: opafm_import(text, requirementsJson) }));
  },

  /** Reads OpenSM `qos_*` lines: the options per prefix and the lints, as JSON. */
  opensmParse(text: string) {
    return call(() => ({ parsed: JSON.parse(opensm_parse(text)) as OpenSmParsed }));
  },

  /** Runs a scenario to the end (or until `cancel`), reporting progress. */
  async run(scenarioJson: string, onProgress: (p: RunProgress) => void) {
    await ready;
    const runId = ++activeRun;
    const started = performance.now();
    let sim: Simulation;
    try {
      sim = new Simulation(scenarioJson);
    } catch (e) {
      return failure(e);
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
      // A run over its run-time budget throws an EngineError of kind `budget`: `stopped`.
      return failure(e);
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
  trace(scenarioJson: string, decisions: number, fromUs: number) {
    return call(() => ({ traceJson: trace_scenario(scenarioJson, decisions, fromUs) }));
  },

  /** Stops the current run at its next yield. */
  cancel(): void {
    cancelledRun = activeRun;
  },
};

Comlink.expose(api);
