// The UI thread's handle on the engine worker (typed RPC through Comlink).
import * as Comlink from 'comlink';
import type { EngineError } from '../generated';
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
import type { EngineApi } from './worker';

export type {
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

/** What the UI needs from an engine (an `EngineClient`, or a fake in tests). */
export type Engine = Pick<EngineClient, 'version' | 'validate' | 'load' | 'run' | 'trace'> &
  Partial<Pick<EngineClient, 'workEstimate' | 'serviceList' | 'atLoad' | 'meanCi90' | 'frameTrace' | 'design' | 'evaluate' | 'opensmExport' | 'opensmParse' | 'designExport' | 'opafmImport'>>;

/** An engine a sweep can use for its points (the sweep panel, R1/R2 studies, `runAtLoad`). */
export type SweepEngine = Pick<Engine, 'run'> & Required<Pick<Engine, 'atLoad'>> & { dispose?: () => void };

/** What the designer needs from the engine. */
export type DesignEngine = Pick<EngineClient, 'design' | 'evaluate' | 'opensmExport' | 'opensmParse' | 'designExport' | 'opafmImport'>;

/** A run whose worker sends nothing (no progress, no answer) for this long is taken as hung. */
export const WATCHDOG_MS = 20_000;

/** One engine worker. Runs are sequential; `cancel` or an AbortSignal stops the current one. */
export class EngineClient {
  private worker!: Worker;
  private api!: Comlink.Remote<EngineApi>;
  /** Settles the current run when its worker dies (an uncaught error, e.g. out of memory). */
  private onWorkerDeath: ((message: string) => void) | null = null;

  constructor(private readonly watchdogMs: number = WATCHDOG_MS) {
    this.spawn();
  }

  private spawn(): void {
    this.worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'qoslab-engine' });
    this.worker.addEventListener('error', (e) => {
      this.onWorkerDeath?.(`the engine worker failed (${e.message || 'out of memory?'})`);
    });
    this.api = Comlink.wrap<EngineApi>(this.worker);
  }

  /** Engine name and version. */
  version(): Promise<string> {
    return this.api.version();
  }

  /** Every problem of a scenario (JSON text), or null when it is valid. */
  validate(scenarioJson: string): Promise<EngineError | null> {
    return this.api.validate(scenarioJson);
  }

  /** Migrates and validates a scenario from a link or file (see the worker's `load`). */
  load(scenarioJson: string): Promise<LoadOutcome> {
    return this.api.load(scenarioJson);
  }

  /** The work a run of the scenario is expected to do (see the worker's `workEstimate`). */
  async workEstimate(scenarioJson: string): Promise<WorkEstimateOutcome> {
    return this.checked(await this.api.workEstimate(scenarioJson));
  }

  /** A service list of `kind` for integer `weights` (see the worker's `serviceList`). */
  async serviceList(kind: string, weights: number[]): Promise<ServiceListOutcome> {
    const outcome = await this.api.serviceList(kind, weights);
    if (!outcome.ok && outcome.crashed) this.respawn();
    return outcome;
  }

  /** The scenario scaled to a total offered load (see the worker's `atLoad`). */
  async atLoad(scenarioJson: string, totalLoad: number): Promise<AtLoadOutcome> {
    const outcome = await this.api.atLoad(scenarioJson, totalLoad);
    if (!outcome.ok && outcome.crashed) this.respawn();
    return outcome;
  }

  /** Mean and 90% confidence half-width of each list of replications' values (see the worker's `meanCi90`). */
  meanCi90(samples: number[][]): Promise<number[][]> {
    return this.api.meanCi90(samples);
  }

  /** Checks and summarises a video frame-size trace (see the worker's `frameTrace`): JSON text. */
  frameTrace(text: string, frameIntervalUs: number): Promise<string> {
    return this.api.frameTrace(text, frameIntervalUs);
  }

  /** Designs a table for requirements JSON (see the worker's `design`). */
  async design(requirementsJson: string): Promise<DesignOutcome> {
    return this.checked(await this.api.design(requirementsJson));
  }

  /** Evaluates a table against requirements (see the worker's `evaluate`). */
  async evaluate(requirementsJson: string, tableJson: string): Promise<EvaluateOutcome> {
    return this.checked(await this.api.evaluate(requirementsJson, tableJson));
  }

  /** OpenSM lines of an InfiniBand design JSON (see the worker's `opensmExport`). */
  async opensmExport(designJson: string): Promise<OpenSmExportOutcome> {
    return this.checked(await this.api.opensmExport(designJson));
  }

  /** A design as a fabric manager's configuration (see the worker's `designExport`). */
  async designExport(designJson: string, format: string): Promise<OpenSmExportOutcome> {
    return this.checked(await this.api.designExport(designJson, format));
  }

  /** Reads an opafm.xml into requirements JSON (see the worker's `opafmImport`). */
  async opafmImport(text: string, requirementsJson: string): Promise<OpenSmParseOutcome> {
    return this.checked(await this.api.opafmImport(text, requirementsJson));
  }

  /** Parses OpenSM lines (see the worker's `opensmParse`). */
  async opensmParse(text: string): Promise<OpenSmParseOutcome> {
    return this.checked(await this.api.opensmParse(text));
  }

  /** Replaces the worker after a crash, and passes the outcome on. */
  private checked<T extends { ok: boolean; crashed?: boolean }>(outcome: T): T {
    if (!outcome.ok && outcome.crashed) this.respawn();
    return outcome;
  }

  /** After a panic the WebAssembly instance cannot be trusted: start afresh. */
  private respawn(): void {
    this.worker.terminate();
    this.spawn();
  }

  /**
   * Runs a scenario in the worker. Aborting `signal` cancels the run. No progress report
   * reaches `onProgress` after the returned promise settles (reports travel on their own
   * message channel and could otherwise arrive after the answer).
   */
  async run(scenarioJson: string, onProgress: (p: RunProgress) => void, signal?: AbortSignal): Promise<RunOutcome> {
    if (signal?.aborted) return { status: 'cancelled' };
    const onAbort = () => void this.api.cancel();
    signal?.addEventListener('abort', onAbort);
    let live = true;
    const report = (p: RunProgress) => {
      if (live) onProgress(p);
    };
    // A worker that dies or stops answering (out of memory, a runaway slice) never answers:
    // a watchdog, re-armed by every progress report, and the worker's error event settle
    // the run instead, and the worker is replaced so the app keeps working.
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lost!: (message: string) => void;
    const gone = new Promise<RunOutcome>((resolve) => {
      lost = (message) => resolve({ status: 'crashed', message });
    });
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => lost(`the engine stopped answering for ${Math.round(this.watchdogMs / 1000)} s (out of memory?)`),
        this.watchdogMs,
      );
    };
    this.onWorkerDeath = lost;
    arm();
    try {
      const outcome = await Promise.race([
        this.api.run(
          scenarioJson,
          Comlink.proxy((p: RunProgress) => {
            arm();
            report(p);
          }),
        ),
        gone,
      ]);
      if (outcome.status === 'crashed') {
        // After a panic, or a worker lost, the WebAssembly instance cannot be trusted: start afresh.
        this.worker.terminate();
        this.spawn();
      }
      return outcome;
    } finally {
      live = false;
      clearTimeout(timer);
      this.onWorkerDeath = null;
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** A decision trace of the scenario (see the worker's `trace`); the UI thread never simulates. */
  async trace(scenarioJson: string, decisions: number, fromUs: number): Promise<TraceOutcome> {
    const outcome = await this.api.trace(scenarioJson, decisions, fromUs);
    if (outcome.status === 'crashed') {
      this.worker.terminate();
      this.spawn();
    }
    return outcome;
  }

  /** Stops the worker for good. */
  dispose(): void {
    this.worker.terminate();
  }
}
