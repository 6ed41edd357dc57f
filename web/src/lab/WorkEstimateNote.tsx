// The engine's estimate of the work of a run, shown before it is started.
import type { WorkEstimate } from '../generated';
import { formatCount } from '../shared/format';

/** Packets above which a run is called long (a few seconds or more in a browser). */
export const LONG_RUN_PACKETS = 2_000_000;

export function WorkEstimateNote({ estimate }: { estimate: WorkEstimate | null }) {
  if (!estimate) return null;
  const work = estimate.packets + estimate.period_changes;
  const share = work / estimate.limit;
  return (
    <p className="note work-estimate" data-testid="work-estimate">
      Estimated work: about {formatCount(Math.round(estimate.packets))} packets
      {share >= 0.01 ? ` (${Math.round(share * 100)} % of the engine's limit)` : ''}.
      {work > LONG_RUN_PACKETS ? ' A long run: progress shows as it goes, and Cancel stops it.' : ''}
    </p>
  );
}
