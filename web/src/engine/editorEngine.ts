// The engine calls the scenario editors make as the user edits (a service list for "Fill
// from weights", a scheduler's starting configuration when its kind is switched, the
// shares under a scheduler), given to them through a context (null without an engine),
// and the hooks over them: `useKindSwitch` switches a scheduler's kind through the engine
// (the change is pending until the engine answers), `useSchedulerShares` keeps the share
// table the engine's (the previous shares stay shown, marked as updating, until it
// answers). In both, an answer the user has since overtaken is dropped.
import { createContext, useCallback, useContext, useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import type { ClassConfig, SchedulerConfig, StartingRequest, WeightsRequest } from '../generated';
import { outcomeLines } from './outcome';
import type { Engine } from './protocol';

/** What the editors ask the engine while the user edits. */
export type EditorEngine = Pick<Engine, 'serviceList' | 'startingScheduler' | 'schedulerWeights'>;

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

/** How long the shares wait after an edit before asking the engine (while the user types). */
export const SHARES_DEBOUNCE_MS = 150;

/** The shares under a scheduler, as the engine last answered them (see {@link useSchedulerShares}). */
export interface SchedulerShares {
  /**
   * Share of every class (fractions summing to 1, or all 0) from the latest answer; null
   * when the scheduler's kind divides no bandwidth by weights; undefined before the first
   * answer, while the first answer for a kind just switched to is awaited (the previous
   * kind's shares say nothing about this one), or when the engine refused the latest
   * request.
   */
  shares: number[] | null | undefined;
  /** The scheduler or classes changed since: the shares given are the previous ones, of the same kind. */
  updating: boolean;
  /** Why there are no shares (the engine refused the request or failed), else null. */
  error: string | null;
}

interface Landed {
  key: string | null;
  kind: SchedulerConfig['kind'] | null;
  shares: number[] | null | undefined;
  error: string | null;
}

/**
 * The engine's shares of `scheduler` over `classes` (the wasm call `scheduler_weights`):
 * asked at once the first time, then {@link SHARES_DEBOUNCE_MS} after the last edit; only
 * the answer to the latest scheduler and classes lands, and until it does the previous
 * shares stay, marked `updating`.
 */
export function useSchedulerShares(scheduler: SchedulerConfig, classes: readonly ClassConfig[]): SchedulerShares {
  const engine = useEditorEngine();
  const key = JSON.stringify({ scheduler, classes });
  // The request of this render (the one `key` was made from), read when the effect for `key` runs.
  const currentRequest = useEffectEvent((): WeightsRequest => ({ scheduler, classes: [...classes] }));
  const [landed, setLanded] = useState<Landed>({ key: null, kind: null, shares: undefined, error: null });
  const latest = useRef(0);
  const answered = useRef(false);
  useEffect(() => {
    if (!engine) return undefined;
    const id = ++latest.current;
    const request = currentRequest();
    const land = (shares: number[] | null | undefined, error: string | null) => {
      if (id !== latest.current) return;
      answered.current = true;
      setLanded({ key, kind: request.scheduler.kind, shares, error });
    };
    const timer = setTimeout(
      () => {
        engine.schedulerWeights(request).then(
          (outcome) => (outcome.status === 'done' ? land(outcome.shares, null) : land(undefined, outcomeLines(outcome).join('; '))),
          (e: unknown) => land(undefined, `the engine failed: ${String(e)}`),
        );
      },
      answered.current ? SHARES_DEBOUNCE_MS : 0,
    );
    return () => {
      clearTimeout(timer);
      // Overtaken (or unmounted): the answer to this request does not land.
      latest.current += 1;
    };
  }, [engine, key]);
  const updating = landed.key !== key;
  // Shares of the kind switched from are not shown beside the new kind's settings.
  const otherKind = landed.kind !== null && landed.kind !== scheduler.kind;
  return useMemo(
    () =>
      engine
        ? { shares: otherKind ? undefined : landed.shares, updating, error: otherKind ? null : landed.error }
        : { shares: undefined, updating: false, error: 'the engine is not available' },
    [engine, landed, updating, otherKind],
  );
}
