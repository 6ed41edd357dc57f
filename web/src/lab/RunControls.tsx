// Run / Cancel, the progress of the run in the worker, and how it ended.
import { useEffect, useRef } from 'react';
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
  // Run and Cancel disable each other: a keyboard user's focus follows to the enabled one
  // instead of falling to the page body.
  const runRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const runPressed = useRef(false);
  const cancelFocused = useRef(false);
  useEffect(() => {
    const active = document.activeElement;
    if (running && runPressed.current) {
      runPressed.current = false;
      cancelRef.current?.focus();
    } else if (!running && cancelFocused.current && (active === cancelRef.current || active === document.body || active === null)) {
      cancelFocused.current = false;
      runRef.current?.focus();
    }
  }, [running]);
  return (
    <div className="run-controls">
      <div className="run-buttons">
        <button
          type="button"
          className="primary"
          ref={runRef}
          onFocus={() => (cancelFocused.current = false)}
          onClick={(e) => {
            runPressed.current = document.activeElement === e.currentTarget;
            onRun();
          }}
          disabled={running || blocked !== null}
          aria-describedby={blocked !== null && !running ? 'run-blocked' : undefined}
        >
          Run
        </button>
        <button
          type="button"
          ref={cancelRef}
          onClick={onCancel}
          onFocus={() => (cancelFocused.current = true)}
          disabled={!running}
        >
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
