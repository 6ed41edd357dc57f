// One run at a time in the engine worker: start, progress, cancel, outcome. The results
// JSON is parsed once, when the run ends, and kept with the scenario JSON it belongs to.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Engine, RunProgress } from '../engine/client';
import type { RunResults } from '../generated';
import { engineErrorLines } from '../shared/errors';
import { parseResults } from '../shared/format';

export type RunPhase =
  | { phase: 'idle' }
  | { phase: 'running'; progress: RunProgress }
  | { phase: 'done'; elapsedMs: number; events: number }
  | { phase: 'cancelled'; progress: RunProgress }
  | { phase: 'failed'; message: string };

/** The results of one finished run. */
export interface RunRecord {
  /** The engine's results JSON, exactly as returned. */
  resultsJson: string;
  /** The same, parsed. */
  results: RunResults;
  /** The scenario JSON that was run. */
  scenarioJson: string;
}

export interface Runner {
  state: RunPhase;
  record: RunRecord | null;
  start: (scenarioJson: string) => void;
  cancel: () => void;
}

const ZERO: RunProgress = { fraction: 0, events: 0, elapsedMs: 0 };

export function useRunner(engine: Pick<Engine, 'run'>): Runner {
  const [state, setState] = useState<RunPhase>({ phase: 'idle' });
  const [record, setRecord] = useState<RunRecord | null>(null);
  const controller = useRef<AbortController | null>(null);
  const lastProgress = useRef<RunProgress>(ZERO);

  const start = useCallback(
    (scenarioJson: string) => {
      if (controller.current) return;
      const abort = new AbortController();
      controller.current = abort;
      lastProgress.current = ZERO;
      setState({ phase: 'running', progress: ZERO });
      // Progress reports travel on their own channel and may arrive after the run's
      // answer: once it is in, later reports must not turn the state back to running.
      let live = true;
      const onProgress = (p: RunProgress) => {
        if (!live) return;
        lastProgress.current = p;
        if (!abort.signal.aborted) setState({ phase: 'running', progress: p });
      };
      engine
        .run(scenarioJson, onProgress, abort.signal)
        .then(
          (outcome) => {
            live = false;
            switch (outcome.status) {
              case 'done':
                setRecord({ resultsJson: outcome.resultsJson, results: parseResults(outcome.resultsJson), scenarioJson });
                setState({ phase: 'done', elapsedMs: outcome.elapsedMs, events: outcome.events });
                break;
              case 'cancelled':
                setState({ phase: 'cancelled', progress: lastProgress.current });
                break;
              case 'invalid':
                setState({ phase: 'failed', message: `The scenario is invalid: ${engineErrorLines(outcome.error).join('; ')}` });
                break;
              case 'stopped':
                setState({ phase: 'failed', message: `The run was stopped: ${engineErrorLines(outcome.error).join('; ')}` });
                break;
              case 'crashed':
                setState({ phase: 'failed', message: `The engine failed and was restarted: ${outcome.message}` });
                break;
            }
          },
          (e: unknown) => {
            live = false;
            setState({ phase: 'failed', message: `The run failed: ${String(e)}` });
          },
        )
        .finally(() => {
          if (controller.current === abort) controller.current = null;
        });
    },
    [engine],
  );

  const cancel = useCallback(() => {
    controller.current?.abort();
  }, []);

  // Stop a run still going when the component goes away.
  useEffect(() => () => controller.current?.abort(), []);

  return { state, record, start, cancel };
}
