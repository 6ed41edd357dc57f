// The runs pinned to the comparison, and running a group of presets one after another in
// the engine worker (progress, cancel), pinning each as it finishes.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Engine, RunProgress } from '../engine/client';
import type { RunResults } from '../generated';
import { engineErrorLines } from '../shared/errors';
import { parseResults } from '../shared/format';
import { runLabel, uniqueLabel, type ComparedRun } from './compareData';

/** Most runs in a comparison (legends and tables stay readable). */
export const MAX_COMPARED = 8;

/** A scenario to run as part of a group: its title and JSON text. */
export interface GroupItem {
  title: string;
  json: string;
}

export type GroupPhase =
  | { phase: 'idle' }
  | { phase: 'running'; index: number; total: number; title: string; fraction: number }
  | { phase: 'done'; total: number }
  | { phase: 'cancelled'; done: number; total: number }
  | { phase: 'failed'; message: string };

export interface Comparison {
  runs: ComparedRun[];
  add: (results: RunResults, label?: string) => void;
  remove: (id: number) => void;
  rename: (id: number, label: string) => void;
  clear: () => void;
  group: GroupPhase;
  runGroup: (items: () => Promise<GroupItem[]>) => void;
  cancelGroup: () => void;
}

let nextId = 1;

export function useComparison(engine: Pick<Engine, 'run'>): Comparison {
  const [runs, setRuns] = useState<ComparedRun[]>([]);
  const [group, setGroup] = useState<GroupPhase>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);

  const add = useCallback((results: RunResults, label?: string) => {
    setRuns((list) => {
      const run = { id: nextId++, label: uniqueLabel(label ?? runLabel(results), list), results };
      return [...list, run].slice(-MAX_COMPARED);
    });
  }, []);
  const remove = useCallback((id: number) => setRuns((list) => list.filter((r) => r.id !== id)), []);
  const rename = useCallback(
    (id: number, label: string) => setRuns((list) => list.map((r) => (r.id === id ? { ...r, label } : r))),
    [],
  );
  const clear = useCallback(() => setRuns([]), []);

  const runGroup = useCallback(
    (items: () => Promise<GroupItem[]>) => {
      if (controller.current) return;
      const abort = new AbortController();
      controller.current = abort;
      setGroup({ phase: 'running', index: 0, total: 0, title: 'Loading the presets…', fraction: 0 });
      void (async () => {
        try {
          const list = await items();
          for (let k = 0; k < list.length; k++) {
            const item = list[k];
            if (!item) continue;
            if (abort.signal.aborted) {
              setGroup({ phase: 'cancelled', done: k, total: list.length });
              return;
            }
            setGroup({ phase: 'running', index: k, total: list.length, title: item.title, fraction: 0 });
            // Progress reports travel on their own channel and may arrive after the run's
            // answer: once it is in, later reports must not turn the status back to running.
            let live = true;
            const onProgress = (p: RunProgress) => {
              if (live && !abort.signal.aborted)
                setGroup({ phase: 'running', index: k, total: list.length, title: item.title, fraction: p.fraction });
            };
            const outcome = await engine.run(item.json, onProgress, abort.signal);
            live = false;
            if (outcome.status === 'cancelled') {
              setGroup({ phase: 'cancelled', done: k, total: list.length });
              return;
            }
            if (outcome.status === 'invalid') {
              setGroup({ phase: 'failed', message: `${item.title} is invalid: ${engineErrorLines(outcome.error).join('; ')}` });
              return;
            }
            if (outcome.status === 'stopped') {
              setGroup({ phase: 'failed', message: `${item.title}: ${engineErrorLines(outcome.error).join('; ')}` });
              return;
            }
            if (outcome.status === 'crashed') {
              setGroup({ phase: 'failed', message: `The engine crashed on ${item.title}: ${outcome.message}` });
              return;
            }
            add(parseResults(outcome.resultsJson));
          }
          setGroup({ phase: 'done', total: list.length });
        } catch (e) {
          setGroup({ phase: 'failed', message: e instanceof Error ? e.message : String(e) });
        } finally {
          if (controller.current === abort) controller.current = null;
        }
      })();
    },
    [engine, add],
  );

  const cancelGroup = useCallback(() => controller.current?.abort(), []);
  useEffect(() => () => controller.current?.abort(), []);

  return { runs, add, remove, rename, clear, group, runGroup, cancelGroup };
}
