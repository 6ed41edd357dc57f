import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunPhase } from '../state/useRunner';
import { RunControls } from './RunControls';

afterEach(cleanup);

const running = { phase: 'running', progress: { fraction: 0.5, events: 1, elapsedMs: 1 } } as RunPhase;
const done = { phase: 'done', elapsedMs: 10, events: 5 } as unknown as RunPhase;

describe('RunControls', () => {
  it('keyboard focus follows Run → Cancel → Run instead of falling to the page', () => {
    const noop = () => undefined;
    const { rerender } = render(<RunControls state={{ phase: 'idle' }} blocked={null} onRun={noop} onCancel={noop} />);
    const run = screen.getByRole('button', { name: 'Run' });
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    run.focus();
    fireEvent.click(run);
    rerender(<RunControls state={running} blocked={null} onRun={noop} onCancel={noop} />);
    expect(document.activeElement).toBe(cancel);
    // The run ends: Cancel disables itself, and the browser drops its focus.
    cancel.blur();
    rerender(<RunControls state={done} blocked={null} onRun={noop} onCancel={noop} />);
    expect(document.activeElement).toBe(run);
  });

  it('a mouse click elsewhere keeps the focus where the user put it', () => {
    const noop = () => undefined;
    const { rerender } = render(<RunControls state={{ phase: 'idle' }} blocked={null} onRun={noop} onCancel={noop} />);
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    rerender(<RunControls state={running} blocked={null} onRun={noop} onCancel={noop} />);
    expect(document.activeElement).toBe(document.body);
  });
});
