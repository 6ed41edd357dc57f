// What a share display says while it has no shares to show (the lab's share table and the
// network's scheduler cards say it alike): the engine's refusal with its reason, or that
// the engine's answer is awaited.
import type { SchedulerShares } from './editorEngine';

/**
 * "Shares unavailable: <reason>" when the engine refused the latest request, "Asking the
 * engine for the shares…" while there are none yet (the first answer, or the first for a
 * kind just switched to); nothing when there are shares, or a kind without any (`null`).
 * Test ids: `<testIdPrefix>shares-unavailable`, `<testIdPrefix>shares-pending`.
 */
export function SharesStatus({ state, testIdPrefix = '' }: { state: SchedulerShares; testIdPrefix?: string }) {
  if (state.error !== null) {
    return (
      <p className="note field-error" role="status" data-testid={`${testIdPrefix}shares-unavailable`}>
        Shares unavailable: {state.error}
      </p>
    );
  }
  if (state.shares === undefined) {
    return (
      <p className="note" role="status" aria-busy="true" data-testid={`${testIdPrefix}shares-pending`}>
        Asking the engine for the shares…
      </p>
    );
  }
  return null;
}
