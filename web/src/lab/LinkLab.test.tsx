import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine, LoadOutcome, RunOutcome, RunProgress, WeightsOutcome } from '../engine/client';
import type { EngineError, RunResults, Scenario } from '../generated';
import { fakeEngine } from '../engine/fakeEngine';
import { encodeHash } from '../share/link';
import { defaultScenario } from '../state/scenario';
import { modelClasses, tableOf } from '../shared/edit';
import { LinkLab } from './LinkLab';

/**
 * A fake engine: weights must be at least 1; a DTable's shares are its entry weights per
 * class over all of them (a stand-in for the engine's `scheduler_weights`, whose formulas
 * are tested in the engine); a run reports half-way, then "done".
 */
function fakeLabEngine(): Engine & { runs: string[] } {
  const check = (json: string): EngineError | null => {
    const s = JSON.parse(json) as Scenario;
    const errors = tableOf(s).flatMap((e, j) =>
      e.weight === null || e.weight < 1 ? [{ path: `model.scheduler.table[${j}].weight`, message: 'must be between 1 and 65535 credits' }] : [],
    );
    return errors.length > 0 ? { kind: 'invalid', errors } : null;
  };
  const runs: string[] = [];
  const engine = fakeEngine({
    version: async () => 'qoslab-core test',
    validate: async (json) => check(json),
    load: async (json): Promise<LoadOutcome> => {
      const error = check(json);
      return error ? { status: 'invalid', error } : { status: 'done', scenarioJson: json };
    },
    schedulerWeights: async ({ scheduler, classes }): Promise<WeightsOutcome> => {
      if (scheduler.kind !== 'dtable') return { status: 'crashed', message: 'schedulerWeights: only DTable is faked' };
      const weights = classes.map((_, i) => scheduler.table.reduce((a, e) => a + (e.class === i && e.weight !== null ? e.weight : 0), 0));
      const total = weights.reduce((a, w) => a + w, 0);
      return { status: 'done', weights, shares: weights.map((w) => w / total) };
    },
    run: async (json: string, onProgress: (p: RunProgress) => void): Promise<RunOutcome> => {
      runs.push(json);
      onProgress({ fraction: 0.5, events: 10, elapsedMs: 5 });
      const s = JSON.parse(json) as Scenario;
      const results: RunResults = {
        engine: 'qoslab-core test',
        scenario: s.name,
        seed: s.seed,
        duration_ns: s.duration_us * 1000,
        warmup_ns: s.warmup_us * 1000,
        link_rate_gbps: s.model.link.rate_gbps,
        events: 20,
        generated: 4,
        delivered: 4,
        in_flight: 0,
        scheduler: { kind: 'dtable', cost: { decisions: 4, entries_visited: 4, bitmap_words: 4, classes_examined: 0, tag_computations: 0, heap_operations: 0 } },
        classes: modelClasses(s.model).map((c) => ({
          name: c.name,
          offered: 0.1,
          throughput: 0.1,
          packets: 1,
          generated: 1,
          delivered: 1,
          in_flight: 0,
          latency_ns: { samples: 1, mean: 1000, min: 1000, p50: 1000, p99: 1000, max: 1000, cdf: [[1000, 1]] },
        })),
      };
      return { status: 'done', resultsJson: JSON.stringify(results, null, 2), events: 20, elapsedMs: 10 };
    },
  });
  return Object.assign(engine, { runs });
}

beforeEach(() => {
  window.history.replaceState(null, '', '/');
});
afterEach(cleanup);

const weight = (j: number) => screen.getByLabelText(`Entry ${j} weight`) as HTMLInputElement;
const runButton = () => screen.getByRole('button', { name: 'Run' }) as HTMLButtonElement;

describe('LinkLab', () => {
  it('shows problems at the field and in the summary, and blocks Run until fixed', async () => {
    render(<LinkLab engine={fakeLabEngine()} />);
    // The first render loads modules and the default scenario: slow on a loaded machine.
    await waitFor(() => expect(runButton().disabled).toBe(false), { timeout: 20_000 });
    fireEvent.change(weight(1), { target: { value: '0' } });
    await waitFor(() => expect(weight(1).getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById('f-model.scheduler.table[1].weight-error')?.textContent).toContain('between 1 and 65535');
    expect(screen.getByTestId('error-summary').textContent).toContain('model.scheduler.table[1].weight');
    expect(runButton().disabled).toBe(true);
    fireEvent.change(weight(1), { target: { value: '40' } });
    await waitFor(() => expect(runButton().disabled).toBe(false));
    expect(weight(1).getAttribute('aria-invalid')).toBeNull();
  }, 30_000);

  it('shows each class share of the table, following weight edits', async () => {
    render(<LinkLab engine={fakeLabEngine()} />);
    await waitFor(() => expect(screen.getByTestId('share-0').textContent).toContain('13.3 %'));
    // Voice has 16 + 16 of 240 credits; raising one entry to 96 gives 112 / 320.
    fireEvent.change(weight(0), { target: { value: '96' } });
    // The engine is asked again: until it answers, the previous share stays, marked busy.
    expect(screen.getByTestId('share-0').getAttribute('aria-busy')).toBe('true');
    expect(screen.getByTestId('share-0').textContent).toContain('13.3 %');
    await waitFor(() => expect(screen.getByTestId('share-0').textContent).toContain('35.0 %'));
    expect(screen.getByTestId('share-0').getAttribute('aria-busy')).toBe('false');
  });

  it('runs the scenario as edited and marks results stale after an edit', async () => {
    const engine = fakeLabEngine();
    render(<LinkLab engine={engine} />);
    await waitFor(() => expect(runButton().disabled).toBe(false));
    await act(async () => runButton().click());
    await waitFor(() => expect(screen.getByTestId('run-status').textContent).toBe('Done'));
    expect(engine.runs).toEqual([JSON.stringify(defaultScenario())]);
    expect(screen.getByTestId('results-table').querySelectorAll('tbody tr')).toHaveLength(4);
    expect(screen.queryByTestId('stale-note')).toBeNull();
    fireEvent.change(weight(0), { target: { value: '17' } });
    expect(screen.getByTestId('stale-note').textContent).toBe('Results are for the previous settings — run again.');
  });

  it('loads the scenario of the link, and the default with an alert for a bad one', async () => {
    const linked = { ...defaultScenario(), name: 'From the link' };
    window.history.replaceState(null, '', `/#${encodeHash(linked)}`);
    render(<LinkLab engine={fakeLabEngine()} />);
    await waitFor(() => expect((screen.getAllByLabelText('Name')[0] as HTMLInputElement).value).toBe('From the link'));
    cleanup();

    const bad = defaultScenario();
    tableOf(bad)[2]!.weight = 0;
    window.history.replaceState(null, '', `/#${encodeHash(bad)}`);
    render(<LinkLab engine={fakeLabEngine()} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('model.scheduler.table[2].weight');
    expect((screen.getAllByLabelText('Name')[0] as HTMLInputElement).value).toBe(defaultScenario().name);
    fireEvent.click(screen.getByRole('button', { name: /^Dismiss/ }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
