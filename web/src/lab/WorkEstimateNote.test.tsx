import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LONG_RUN_PACKETS, WorkEstimateNote } from './WorkEstimateNote';

afterEach(cleanup);

describe('the work estimate before a run', () => {
  it('says nothing without an estimate', () => {
    render(<WorkEstimateNote estimate={null} />);
    expect(screen.queryByTestId('work-estimate')).toBeNull();
  });

  it('gives the packets, the share of the limit when it matters, and warns of a long run', () => {
    render(<WorkEstimateNote estimate={{ packets: 977.4, period_changes: 0, limit: 2e8 }} />);
    expect(screen.getByTestId('work-estimate').textContent).toMatch(/^Estimated work: about 977 packets\.$/);
    cleanup();
    render(<WorkEstimateNote estimate={{ packets: 5e7, period_changes: 1e7, limit: 2e8 }} />);
    const text = screen.getByTestId('work-estimate').textContent ?? '';
    expect(text).toMatch(/about 50.000.000 packets \(30 % of the engine's limit\)\./);
    expect(text).toMatch(/A long run: progress shows as it goes, and Cancel stops it\./);
    expect(LONG_RUN_PACKETS).toBeLessThan(6e7);
  });
});
