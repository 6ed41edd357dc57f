import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunOutcome } from '../engine/client';
import { fakeEngine as engineFake } from '../engine/fakeEngine';
import type { RunResults } from '../generated';
import { ExperimentView } from './ExperimentView';

/** R3 as bundled: both switch models, interleaved per topology. */
function r3WithOpa(): string {
  return readFileSync(join(process.cwd(), 'public/studies/r3.json'), 'utf8');
}

const SLS = ['NC', 'VO', 'VI', 'CL', 'EE', 'BE', 'BK'];

/** Results per SL: flits per cycle from the preset's name (OPA a little more), 1 % more on odd seeds. */
function results(json: string): RunResults {
  const s = JSON.parse(json) as { name: string; seed: number; load: number };
  const f = (s.name.endsWith('-opa') ? 0.12 : 0.1) * s.load * (1 + 0.01 * (s.seed % 2));
  return {
    seed: s.seed,
    classes: SLS.map((name) => ({
      name,
      offered: f,
      throughput: f,
      flits: { flit_bytes: 64, cycle_ns: 5.12, offered: f, throughput: f },
      latency_ns: { samples: 10, mean: 1000 * f, min: 0, p50: 0, p99: 0, max: 0, cdf: [] },
    })),
  } as unknown as RunResults;
}

function meanCi90(samples: number[][]): Promise<number[][]> {
  return Promise.resolve(
    samples.map((v) => {
      const m = v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
      const sd = Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, v.length - 1));
      return v.length < 2 ? [m, NaN] : [m, 6.314 * (sd / Math.sqrt(v.length))];
    }),
  );
}

afterEach(cleanup);
beforeEach(() => window.history.replaceState(null, '', '#view=r3'));

describe('ExperimentView with a grouped study (R3 with both switch models)', () => {
  it('runs only the panels ticked, draws a panel per topology with a line per switch, and puts the panels in the link', async () => {
    const names: string[] = [];
    const engine = {
      run: (json: string, onProgress: (p: { fraction: number; events: number; elapsedMs: number }) => void) => {
        onProgress({ fraction: 1, events: 1, elapsedMs: 1 });
        return Promise.resolve<RunOutcome>({ status: 'done', resultsJson: JSON.stringify(results(json)), events: 1, elapsedMs: 1 });
      },
      atLoad: (json: string, load: number) => Promise.resolve({ status: 'done' as const, scenarioJson: JSON.stringify({ ...JSON.parse(json), load }) }),
      meanCi90,
    };
    const readPreset = (name: string) => {
      names.push(name);
      return Promise.resolve(JSON.stringify({ version: 1, name, seed: 1, duration_us: 100, warmup_us: 10, model: {} }));
    };
    const text = r3WithOpa();
    render(<ExperimentView studyId="r3" prefix="view=r3" readFile={() => Promise.resolve(text)} engine={engineFake(engine)} createEngine={() => engine} readPreset={readPreset} />);
    await screen.findByRole('button', { name: 'Run R3 sweep' });
    // The 4-ary 3-tree by default; tick the 8x8 torus too.
    expect((screen.getByTestId('r3-panel-0') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByTestId('r3-panel-2'));
    fireEvent.change(screen.getByLabelText('Total offered loads (fractions of the link)'), { target: { value: '0.8, 1' } });
    fireEvent.change(screen.getByLabelText('Seeds per point'), { target: { value: '2' } });
    // 2 panels x 2 switches x 2 loads x 2 seeds.
    expect(screen.getByText(/16 runs in all\./)).toBeTruthy();
    names.length = 0;
    fireEvent.click(screen.getByRole('button', { name: 'Run R3 sweep' }));
    await waitFor(() => expect(screen.getByTestId('r3-status').textContent).toMatch(/^Done: 16 runs/));
    expect(names.sort()).toEqual(['r3-4ary3tree-ib', 'r3-4ary3tree-opa', 'r3-torus8x8-ib', 'r3-torus8x8-opa']);
    const chart = screen.getByTestId('r3-throughput');
    expect([...chart.querySelectorAll('g.panel-plot')].map((g) => g.getAttribute('data-panel'))).toEqual(['4-ary 3-tree', '8x8 torus']);
    expect([...chart.querySelectorAll('g.panel-series')].map((g) => g.getAttribute('data-series'))).toEqual(['InfiniBand', 'Omni-Path', 'InfiniBand', 'Omni-Path']);
    // Seeds differ by 1 %: a band per line.
    expect(chart.querySelectorAll('path.ci-band')).toHaveLength(4);
    // Every SL as small multiples: a panel per (topology, SL).
    fireEvent.change(screen.getByLabelText('Service level shown'), { target: { value: 'all' } });
    expect(screen.getByTestId('r3-mean').querySelectorAll('g.panel-plot')).toHaveLength(2 * SLS.length);
    await waitFor(() => expect(window.location.hash).toBe('#view=r3&loads=0.8,1&seeds=2&seed=&us=100&panels=0,2'));
  });
});
