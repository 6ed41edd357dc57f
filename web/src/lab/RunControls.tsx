// Run / Cancel, the progress of the run in the worker, and how it ended.
import type { RunPhase } from '../state/useRunner';
import { formatCount, formatElapsed } from './format';

interface Props {
  state: RunPhase;
  /** Why Run is disabled, or null when it can run. */
  blocked: string | null;
  onRun: () => void;
  onCancel: () => void;
}

function statusText(state: RunPhase): string {
  switch (state.phase) {
    case 'idle':
      return 'Ready';
    case 'running':
      return `Running… ${Math.floor(state.progress.fraction * 100)} %`;
    case 'done':
      return 'Done';
    case 'cancelled':
      return 'Cancelled';
    case 'failed':
      return state.message;
  }
}

export function RunControls({ state, blocked, onRun, onCancel }: Props) {
  const running = state.phase === 'running';
  const progress = state.phase === 'running' || state.phase === 'cancelled' ? state.progress : null;
  const fraction = state.phase === 'done' ? 1 : (progress?.fraction ?? 0);
  const elapsedMs = state.phase === 'done' ? state.elapsedMs : (progress?.elapsedMs ?? null);
  const events = state.phase === 'done' ? state.events : (progress?.events ?? null);
  return (
    <div className="run-controls">
      <div className="run-buttons">
        <button
          type="button"
          className="primary"
          onClick={onRun}
          disabled={running || blocked !== null}
          aria-describedby={blocked !== null && !running ? 'run-blocked' : undefined}
        >
          Run
        </button>
        <button type="button" onClick={onCancel} disabled={!running}>
          Cancel
        </button>
      </div>
      <div className="run-progress">
        <progress max={1} value={fraction} aria-label="Run progress" />
        <div className="run-meta">
          <span role="status" className={`run-status${state.phase === 'failed' ? ' failed' : ''}`} data-testid="run-status">
            {statusText(state)}
          </span>
          {elapsedMs !== null ? <span data-testid="run-elapsed">{formatElapsed(elapsedMs)}</span> : null}
          {events !== null ? <span data-testid="run-events">{formatCount(events)} events</span> : null}
        </div>
        {blocked !== null && !running ? (
          <div className="run-blocked" id="run-blocked">
            {blocked}
          </div>
        ) : null}
      </div>
    </div>
  );
}
