// The engine calls the scenario editors make as the user edits (a service list for "Fill
// from weights", a scheduler's starting configuration when its kind is switched), given
// to them through a context (null without an engine), and the hook that switches a
// scheduler's kind through the engine: the change is pending until the engine answers,
// and an answer the user has since overtaken is dropped.
import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
import type { SchedulerConfig, StartingRequest } from '../generated';
import { outcomeLines } from './outcome';
import type { Engine } from './protocol';

/** What the editors ask the engine while the user edits. */
export type EditorEngine = Pick<Engine, 'serviceList' | 'startingScheduler'>;

export const EditorEngineContext = createContext<EditorEngine | null>(null);

/** The editors' engine, or null when there is none (some tests). */
export function useEditorEngine(): EditorEngine | null {
  return useContext(EditorEngineContext);
}

/** A kind switch waiting for the engine, or why the last one failed. */
export interface KindSwitch {
  /** The kind asked for while the engine has not answered. */
  pending: SchedulerConfig['kind'] | null;
  /** Why the last switch did not happen (the engine refused or failed), else null. */
  error: string | null;
  /**
   * Asks the engine for `request.kind`'s starting configuration and passes it to `apply`
   * unless another `ask` or `settle` came first (only the latest switch lands).
   */
  ask(request: StartingRequest, apply: (config: SchedulerConfig) => void): void;
  /** Ends any pending switch without applying it (a remembered configuration was restored). */
  settle(): void;
}

/** A scheduler kind switch through the engine (see {@link KindSwitch}). */
export function useKindSwitch(): KindSwitch {
  const engine = useEditorEngine();
  const latest = useRef(0);
  const [pending, setPending] = useState<SchedulerConfig['kind'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Unmounted: no answer lands.
  useEffect(
    () => () => {
      latest.current += 1;
    },
    [],
  );
  const settle = useCallback(() => {
    latest.current += 1;
    setPending(null);
    setError(null);
  }, []);
  const ask = useCallback(
    (request: StartingRequest, apply: (config: SchedulerConfig) => void) => {
      const id = ++latest.current;
      setError(null);
      if (!engine) {
        setPending(null);
        setError('The engine is not available: the kind cannot be switched.');
        return;
      }
      setPending(request.kind as SchedulerConfig['kind']);
      engine.startingScheduler(request).then(
        (outcome) => {
          if (id !== latest.current) return;
          setPending(null);
          if (outcome.status === 'done') apply(outcome.config);
          else setError(`The engine could not switch the kind: ${outcomeLines(outcome).join('; ')}`);
        },
        (e: unknown) => {
          if (id !== latest.current) return;
          setPending(null);
          setError(`The engine failed: ${String(e)}`);
        },
      );
    },
    [engine],
  );
  return { pending, error, ask, settle };
}
