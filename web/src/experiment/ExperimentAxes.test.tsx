// The experiment view along a network processor's axis: R5's budget study sets each point
// through the engine's `atPoint` (never `atLoad`), draws the link's budget as a third line,
// and names the axis in its table; a refusal of the engine is shown with the point.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunOutcome } from '../engine/client';
import { fakeEngine } from '../engine/fakeEngine';
import type { RunResults } from '../generated';
import { ExperimentView } from './ExperimentView';

const studyText = readFileSync(join(process.cwd(), 'public/studies/r5-budget.json'), 'utf8');

afterEach(cleanup);
beforeEach(() => window.history.replaceState(null, '', '#view=study&id=r5-budget'));

const preset = (name: string) => JSON.stringify({ version: 1, name, seed: 1, duration_us: 1000, warmup_us: 100, model: {} });

/** Results of a point: the heap needs 1900 cycles per packet, HILQ 170; the budget is 1.856 cycles per byte. */
function results(json: string): RunResults {
  const s = JSON.parse(json) as { name: string; bytes: number };
  const cycles = s.name.endsWith('heap') ? 1900 : 170;
  return {
    seed: 1,
    classes: [{ name: 'streams', offered: 0.9, throughput: 0.9, latency_ns: { samples: 1, mean: 1, min: 1, p50: 1, p99: 1, max: 1, cdf: [] } }],
    network_processor: {
      active_streams: 4000,
      categories: [{ violations: 0 }],
      cost: { accesses_per_packet: 10, cycles_per_packet: cycles, budget_cycles: 1.856 * s.bytes, sustained_packets_per_s: 232e6 / cycles, sustained_streams: 1 },
    },
  } as unknown as RunResults;
}

function engine(refuse = false) {
  const calls: [string, number][] = [];
  const fake = {
    run: (json: string) => Promise.resolve<RunOutcome>({ status: 'done', resultsJson: JSON.stringify(results(json)), events: 1, elapsedMs: 1 }),
    atPoint: (json: string, axis: string, value: number) => {
      calls.push([axis, value]);
      if (refuse) return Promise.resolve({ status: 'invalid' as const, error: { kind: 'invalid' as const, errors: [{ path: 'axis', message: 'no' }] } });
      return Promise.resolve({ status: 'done' as const, scenarioJson: JSON.stringify({ ...JSON.parse(json), bytes: value }) });
    },
    meanCi90: (samples: number[][]) => Promise.resolve(samples.map((v) => [v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN, NaN])),
  };
  // atLoad stays "not faked": a call would fail the sweep.
  return { engine: fakeEngine(fake), createEngine: () => ({ run: fake.run, atLoad: fakeEngine().atLoad, atPoint: fake.atPoint }), calls };
}

async function open(e: ReturnType<typeof engine>) {
  render(
    <ExperimentView
      studyId="r5-budget"
      prefix="view=study&id=r5-budget"
      readFile={() => Promise.resolve(studyText)}
      readPreset={(name) => Promise.resolve(preset(name))}
      engine={e.engine}
      createEngine={e.createEngine}
    />,
  );
  await screen.findByRole('button', { name: 'Run R5 budget sweep' });
}

describe('ExperimentView along the packet size', () => {
  it('sets every point with atPoint(packet_bytes), draws the budget line and names the axis', async () => {
    const e = engine();
    await open(e);
    fireEvent.change(screen.getByLabelText('Packet size (bytes) values'), { target: { value: '1024 128' } });
    fireEvent.change(screen.getByLabelText('Seeds per point'), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run R5 budget sweep' }));
    await waitFor(() => expect(screen.getByTestId('r5-budget-status').textContent).toMatch(/^Done: 4 runs/));
    expect(e.calls.map(([axis]) => axis)).toEqual(['packet_bytes', 'packet_bytes', 'packet_bytes', 'packet_bytes']);
    expect([...new Set(e.calls.map(([, v]) => v))].sort((a, b) => a - b)).toEqual([128, 1024]);
    // Heap, HILQ and the link's budget.
    expect(screen.getByTestId('r5-budget-cycles').querySelectorAll('path.panel-line')).toHaveLength(3);
    expect(screen.getByTestId('r5-budget-cycles').textContent).toContain('Link budget (cycles per packet at line rate)');
    expect(screen.getByTestId('r5-budget-rate').querySelectorAll('path.panel-line')).toHaveLength(2);
    expect(screen.getByTestId('r5-budget-points').textContent).toContain('Seeds finished per scheduler and packet size (bytes)');
    await waitFor(() => expect(window.location.hash).toBe('#view=study&id=r5-budget&loads=128,1024&seeds=1&seed=&us='));
  });

  it('refuses values off the axis in the form, and shows the engine’s refusal with the point', async () => {
    const e = engine(true);
    await open(e);
    fireEvent.change(screen.getByLabelText('Packet size (bytes) values'), { target: { value: '128 0.5' } });
    expect(screen.getByText('“0.5” is not a whole number of bytes from 1 to 65536.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Run R5 budget sweep' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Packet size (bytes) values'), { target: { value: '128' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run R5 budget sweep' }));
    await waitFor(() => expect(screen.getByTestId('r5-budget-status').textContent).toMatch(/Heap \(exact\) at packet size \(bytes\) 128, seed 1: .*axis.*no/));
  });
});
