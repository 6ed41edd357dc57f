// The UI thread's handle on the engine worker (typed RPC through Comlink). Every call that
// can be refused or crash goes through one wrapper, `call`: it settles with an `Outcome`
// even when the worker dies, stops answering or is aborted, and replaces a worker that
// cannot be trusted any more.
import * as Comlink from 'comlink';
import type { Axis, EngineError, StartingRequest, WeightsRequest } from '../generated';
import type {
  AtLoadOutcome,
  DesignOutcome,
  Engine,
  EvaluateOutcome,
  ExportOutcome,
  FrameTraceOutcome,
  LoadOutcome,
  OpafmImportOutcome,
  OpenSmParseOutcome,
  Outcome,
  RunOutcome,
  RunProgress,
  ServiceListOutcome,
  StartingOutcome,
  TraceOutcome,
  Unfinished,
  WeightsOutcome,
  WorkEstimateOutcome,
  WorkerApi,
} from './protocol';

export type * from './protocol';

/** An engine a sweep can use for its points (the sweep panel, the studies, `runAtLoad`). */
export type SweepEngine = Pick<Engine, 'run' | 'atLoad'> & Partial<Pick<Engine, 'atPoint'>> & { dispose?: () => void };

/** What the designer needs from the engine. */
export type DesignEngine = Pick<Engine, 'design' | 'evaluate' | 'opensmExport' | 'opensmParse' | 'designExport' | 'opafmImport'>;

/** A run whose worker sends nothing (no progress, no answer) for this long is taken as hung. */
export const WATCHDOG_MS = 20_000;

/** How a call may be stopped and watched. */
interface CallOptions {
  signal?: AbortSignal;
  /** Abort asks the worker to stop at its next yield (runs); otherwise the worker is replaced. */
  cooperative?: boolean;
  /** Settle as crashed when the worker says nothing for `watchdogMs` (re-armed by `alive`). */
  watchdog?: boolean;
}

/** One engine worker. Runs are sequential; an AbortSignal stops a long call. */
export class EngineClient implements Engine {
  private worker!: Worker;
  private api!: Comlink.Remote<WorkerApi>;
  /** Which worker is current: a call only replaces the worker it ran on. */
  private generation = 0;
  /** Settle the calls in flight when their worker dies (an uncaught error, e.g. out of memory) or is replaced. */
  private readonly deaths = new Set<(message: string) => void>();

  constructor(private readonly watchdogMs: number = WATCHDOG_MS) {
    this.spawn();
  }

  private spawn(): void {
    this.worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'qoslab-engine' });
    this.worker.addEventListener('error', (e) => {
      for (const died of [...this.deaths]) died(`the engine worker failed (${e.message || 'out of memory?'})`);
    });
    this.api = Comlink.wrap<WorkerApi>(this.worker);
  }

  /** After a panic, a lost worker or an abort, the WebAssembly instance cannot be trusted: start afresh. */
  private respawn(): void {
    this.worker.terminate();
    const orphans = [...this.deaths];
    this.deaths.clear();
    this.generation += 1;
    this.spawn();
    for (const died of orphans) died('the engine was restarted while this call was under way');
  }

  /** The one wrapper of every call that answers an outcome (see `CallOptions`). */
  private async call<T extends object>(
    request: (api: Comlink.Remote<WorkerApi>, alive: () => void) => Promise<Outcome<T>>,
    options: CallOptions = {},
  ): Promise<Outcome<T>> {
    const { signal, cooperative = false, watchdog = false } = options;
    if (signal?.aborted) return { status: 'cancelled' };
    const generation = this.generation;
    let settle!: (outcome: Unfinished) => void;
    const interrupted = new Promise<Unfinished>((resolve) => {
      settle = resolve;
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const alive = () => {
      if (!watchdog) return;
      clearTimeout(timer);
      const seconds = Math.round(this.watchdogMs / 1000);
      timer = setTimeout(() => settle({ status: 'crashed', message: `the engine stopped answering for ${seconds} s (out of memory?)` }), this.watchdogMs);
    };
    const died = (message: string) => settle({ status: 'crashed', message });
    const onAbort = () => (cooperative ? void this.api.cancel() : settle({ status: 'cancelled' }));
    this.deaths.add(died);
    signal?.addEventListener('abort', onAbort);
    alive();
    try {
      const outcome = await Promise.race([request(this.api, alive), interrupted]);
      const untrusted = outcome.status === 'crashed' || (outcome.status === 'cancelled' && !cooperative);
      if (untrusted && this.generation === generation) this.respawn();
      return outcome;
    } finally {
      clearTimeout(timer);
      this.deaths.delete(died);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** A call that answers a plain value: rejected (not left pending) when its worker dies or is replaced. */
  private async plain<T>(request: (api: Comlink.Remote<WorkerApi>) => Promise<T>): Promise<T> {
    let died!: (message: string) => void;
    const lost = new Promise<never>((_, reject) => {
      died = (message) => reject(new Error(message));
    });
    this.deaths.add(died);
    try {
      return await Promise.race([request(this.api), lost]);
    } finally {
      this.deaths.delete(died);
    }
  }

  version(): Promise<string> {
    return this.plain((api) => api.version());
  }

  validate(scenarioJson: string): Promise<EngineError | null> {
    return this.plain<EngineError | null>((api) => api.validate(scenarioJson));
  }

  meanCi90(samples: number[][]): Promise<number[][]> {
    return this.plain((api) => api.meanCi90(samples));
  }

  load(scenarioJson: string): Promise<LoadOutcome> {
    return this.call((api) => api.load(scenarioJson));
  }

  workEstimate(scenarioJson: string): Promise<WorkEstimateOutcome> {
    return this.call((api) => api.workEstimate(scenarioJson));
  }

  serviceList(kind: string, weights: number[]): Promise<ServiceListOutcome> {
    return this.call((api) => api.serviceList(kind, weights));
  }

  startingScheduler(request: StartingRequest): Promise<StartingOutcome> {
    return this.call((api) => api.startingScheduler(request));
  }

  schedulerWeights(request: WeightsRequest): Promise<WeightsOutcome> {
    return this.call((api) => api.schedulerWeights(request));
  }

  atLoad(scenarioJson: string, totalLoad: number): Promise<AtLoadOutcome> {
    return this.call((api) => api.atLoad(scenarioJson, totalLoad));
  }

  atPoint(scenarioJson: string, axis: Axis, value: number): Promise<AtLoadOutcome> {
    return this.call((api) => api.atPoint(scenarioJson, axis, value));
  }

  frameTrace(text: string, frameIntervalUs: number): Promise<FrameTraceOutcome> {
    return this.call((api) => api.frameTrace(text, frameIntervalUs));
  }

  design(requirementsJson: string, signal?: AbortSignal): Promise<DesignOutcome> {
    return this.call((api) => api.design(requirementsJson), { signal });
  }

  evaluate(requirementsJson: string, tableJson: string, signal?: AbortSignal): Promise<EvaluateOutcome> {
    return this.call((api) => api.evaluate(requirementsJson, tableJson), { signal });
  }

  opensmExport(designJson: string): Promise<ExportOutcome> {
    return this.call((api) => api.opensmExport(designJson));
  }

  designExport(designJson: string, format: string): Promise<ExportOutcome> {
    return this.call((api) => api.designExport(designJson, format));
  }

  opafmImport(text: string, requirementsJson: string): Promise<OpafmImportOutcome> {
    return this.call((api) => api.opafmImport(text, requirementsJson));
  }

  opensmParse(text: string): Promise<OpenSmParseOutcome> {
    return this.call((api) => api.opensmParse(text));
  }

  /**
   * Runs a scenario in the worker. Aborting `signal` cancels the run at the worker's next
   * yield. A worker that dies or stops answering (out of memory, a runaway slice) settles
   * the run as crashed: a watchdog, re-armed by every progress report, and the worker's
   * error event. No progress report reaches `onProgress` after the returned promise settles
   * (reports travel on their own message channel and could otherwise arrive after the answer).
   */
  async run(scenarioJson: string, onProgress: (p: RunProgress) => void, signal?: AbortSignal): Promise<RunOutcome> {
    let live = true;
    try {
      return await this.call(
        (api, alive) =>
          api.run(
            scenarioJson,
            Comlink.proxy((p: RunProgress) => {
              alive();
              if (live) onProgress(p);
            }),
          ),
        { signal, cooperative: true, watchdog: true },
      );
    } finally {
      live = false;
    }
  }

  /** A decision trace of the scenario; aborting `signal` replaces the worker (a trace is one engine call). */
  trace(scenarioJson: string, decisions: number, fromUs: number, signal?: AbortSignal): Promise<TraceOutcome> {
    return this.call((api) => api.trace(scenarioJson, decisions, fromUs), { signal });
  }

  /** Stops the worker for good. */
  dispose(): void {
    this.worker.terminate();
  }
}
