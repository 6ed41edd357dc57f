// Progress reports come on their own channel and can arrive after a run's answer: the
// run's final state must not be overwritten by such a late report.
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useComparison } from '../compare/useComparison';
import type { Engine, RunOutcome, RunProgress } from '../engine/client';
import { useRunner } from './useRunner';

/** Just what the comparison reads of a results document. */
const RESULTS = { scenario: 'R1', seed: 1, scheduler: { kind: 'dtable' }, classes: [] };

/** An engine that answers at once and sends one more progress report afterwards. */
function lateEngine(): Pick<Engine, 'run'> {
  return {
    run: (_json: string, onProgress: (p: RunProgress) => void): Promise<RunOutcome> => {
      setTimeout(() => onProgress({ fraction: 1, events: 10, elapsedMs: 1 }), 5);
      return Promise.resolve({ status: 'done', resultsJson: JSON.stringify(RESULTS), events: 10, elapsedMs: 1 });
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 30));

describe('late progress reports', () => {
  it('do not turn a finished run back to running', async () => {
    const { result } = renderHook(() => useRunner(lateEngine()));
    act(() => result.current.start('{}'));
    await waitFor(() => expect(result.current.state.phase).toBe('done'));
    await act(settle);
    expect(result.current.state.phase).toBe('done');
  });

  it('do not turn a finished group comparison back to running', async () => {
    const { result } = renderHook(() => useComparison(lateEngine()));
    act(() => result.current.runGroup(() => Promise.resolve([{ title: 'A', json: '{}' }, { title: 'B', json: '{}' }])));
    await waitFor(() => expect(result.current.group.phase).toBe('done'));
    await act(settle);
    expect(result.current.group.phase).toBe('done');
    expect(result.current.runs).toHaveLength(2);
  });
});
