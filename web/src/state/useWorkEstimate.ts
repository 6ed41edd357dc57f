// The engine's estimate of a run's work, asked once the scenario is valid (the estimate
// is the figure validation holds against its limit). Answers for older JSON are dropped.
import { useEffect, useState } from 'react';
import type { Engine } from '../engine/client';
import type { WorkEstimate } from '../generated';

export function useWorkEstimate(engine: Pick<Engine, 'workEstimate'>, json: string, valid: boolean): WorkEstimate | null {
  const [answer, setAnswer] = useState<{ json: string; estimate: WorkEstimate } | null>(null);
  useEffect(() => {
    if (!valid) return;
    let live = true;
    engine.workEstimate(json).then(
      (outcome) => {
        if (live && outcome.status === 'done') setAnswer({ json, estimate: outcome.estimate });
      },
      () => {
        // No estimate: the run still shows its progress.
      },
    );
    return () => {
      live = false;
    };
  }, [engine, json, valid]);
  return valid && answer?.json === json ? answer.estimate : null;
}
