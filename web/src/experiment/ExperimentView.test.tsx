import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine, RunOutcome } from '../engine/client';
import { fakeEngine as engineFake } from '../engine/fakeEngine';
import type { RunResults } from '../generated';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ComponentProps } from 'react';
import { ExperimentView } from './ExperimentView';

/** The R2 study as the app bundles it: the view has nothing of R2 but this file. */
const studyText = readFileSync(join(process.cwd(), 'public/studies/r2.json'), 'utf8');
const R2_SCHEDULERS = (JSON.parse(studyText) as { configurations: { preset: string }[] }).configurations;

/** Opens the R2 study at `#view=r2` and waits until its form shows. */
async function renderR2(props: Omit<ComponentProps<typeof ExperimentView>, 'studyId' | 'prefix' | 'readFile'>) {
  render(<ExperimentView studyId="r2" prefix="view=r2" readFile={() => Promise.resolve(studyText)} {...props} />);
  await screen.findByRole('button', { name: 'Run R2 sweep' });
}

afterEach(cleanup);
beforeEach(() => window.history.replaceState(null, '', '#view=r2'));

const CLASSES = ['VO', 'BE'];

/** A preset: the scheduler's index in its name, seed 7. */
const preset = (name: string) => JSON.stringify({ version: 1, name, seed: 7, duration_us: 1000, warmup_us: 100, model: {} });

/**
 * Results that depend only on (scheduler, load, seed): scheduler k has latency
 * 1000 · load · (k + 1), 1 % more on odd seeds, so the others' latency is 100 %, 200 % and 300 %
 * longer than DTable's ((other − DTable) / DTable) whatever the seeds.
 */
function results(json: string): RunResults {
  const s = JSON.parse(json) as { name: string; seed: number; load: number };
  const k = R2_SCHEDULERS.findIndex((x) => x.preset === s.name);
  const mean = 1000 * s.load * (k + 1) * (1 + 0.01 * (s.seed % 2));
  return {
    seed: s.seed,
    classes: CLASSES.map((name, c) => ({
      name,
      offered: s.load / 2,
      throughput: s.load / 2 - 0.001 * c * (s.seed % 2),
      latency_ns: { samples: 10, mean, min: 0, p50: mean, p99: 2 * mean, max: 3 * mean, cdf: [[mean, 0.5], [2 * mean, 1]] },
    })),
  } as unknown as RunResults;
}

/** Student's t for 90% (the first rows of the engine's table) — the fake's statistics. */
const T90 = [NaN, 6.314, 2.92, 2.353];
function meanCi90(samples: number[][]): Promise<number[][]> {
  return Promise.resolve(
    samples.map((v) => {
      const n = v.length;
      if (n === 0) return [NaN, NaN];
      const m = v.reduce((a, b) => a + b, 0) / n;
      if (n < 2) return [m, NaN];
      const sd = Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / (n - 1));
      return [m, (T90[n - 1] ?? 1.645) * (sd / Math.sqrt(n))];
    }),
  );
}

function fakeEngine({ hang = false } = {}) {
  const seeds: number[] = [];
  const engine = {
    run: (json: string, onProgress: (p: { fraction: number; events: number; elapsedMs: number }) => void, signal?: AbortSignal) => {
      seeds.push((JSON.parse(json) as { seed: number }).seed);
      onProgress({ fraction: 0.5, events: 1, elapsedMs: 1 });
      if (hang) {
        return new Promise<RunOutcome>((resolve) => signal?.addEventListener('abort', () => resolve({ status: 'cancelled' })));
      }
      return Promise.resolve<RunOutcome>({ status: 'done', resultsJson: JSON.stringify(results(json)), events: 1, elapsedMs: 1 });
    },
    atLoad: (json: string, load: number) => Promise.resolve({ status: 'done' as const, scenarioJson: JSON.stringify({ ...JSON.parse(json), load }) }),
    meanCi90,
  };
  return { engine: engineFake(engine), createEngine: () => engine, seeds };
}

const readPreset = (name: string) => Promise.resolve(preset(name));

function fill(loads: string, seeds: string) {
  fireEvent.change(screen.getByLabelText('Total offered loads (fractions of the link)'), { target: { value: loads } });
  fireEvent.change(screen.getByLabelText('Seeds per point'), { target: { value: seeds } });
}

describe('ExperimentView with the R2 study', () => {
  it('runs every (scheduler, load, seed), summarises with the engine statistics and tabulates DTable’s improvement', async () => {
    const fake = fakeEngine();
    await renderR2({ engine: fake.engine, createEngine: fake.createEngine, readPreset: readPreset });
    fill('0.8, 1', '2');
    expect(screen.getByText(/16 runs in all\./)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Run R2 sweep' }));
    await waitFor(() => expect(screen.getByTestId('r2-status').textContent).toMatch(/^Done: 16 runs/));
    // The presets' seed 7, then 8, for every point.
    expect([...new Set(fake.seeds)].sort()).toEqual([7, 8]);
    expect(fake.seeds).toHaveLength(16);
    const rows = within(screen.getByTestId('r2-improvement')).getAllByRole('row').slice(2);
    expect(rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent))).toEqual(
      CLASSES.flatMap((c) => ['0.8', '1'].map((l) => [c, l, '+100.0 %', '+100.0 %', '+200.0 %', '+200.0 %', '+300.0 %', '+300.0 %'])),
    );
    // Seeds differ by 1 %: every latency point has a band; BE's throughput differs too.
    const bands = screen.getByTestId('r2-mean').querySelectorAll('path.ci-band');
    expect(bands).toHaveLength(CLASSES.length * 4);
    expect(screen.getByTestId('r2-cdf').querySelectorAll('path.panel-line')).toHaveLength(CLASSES.length * 4);
    expect(screen.getByTestId('r2-points').querySelectorAll('td.point-done')).toHaveLength(8);
    await waitFor(() => expect(window.location.hash).toBe('#view=r2&loads=0.8,1&seeds=2&seed=&us='));
  });

  it('opens with the parameters of its link and reports damaged ones', async () => {
    const fake = fakeEngine();
    await renderR2({ engine: fake.engine, createEngine: fake.createEngine, readPreset: readPreset, initialHash: "#view=r2&loads=0.9,1&seeds=x&seed=3&us=500" });
    expect((screen.getByLabelText('Total offered loads (fractions of the link)') as HTMLInputElement).value).toBe('0.9, 1');
    expect((screen.getByLabelText('Seeds per point') as HTMLInputElement).value).toBe('10');
    expect((screen.getByLabelText('First seed') as HTMLInputElement).value).toBe('3');
    expect((screen.getByLabelText('Simulated time per run (µs)') as HTMLInputElement).value).toBe('500');
    expect(screen.getByRole('alert').textContent).toMatch(/seeds: Seeds per point must be/);
  });

  it('names the missing presets', async () => {
    const fake = fakeEngine();
    await renderR2({ engine: fake.engine, createEngine: fake.createEngine, readPreset: () => Promise.reject(new Error('HTTP 404')) });
    fireEvent.click(screen.getByRole('button', { name: 'Run R2 sweep' }));
    await waitFor(() => expect(screen.getByTestId('r2-status').textContent).toMatch(/r2-multimedia-dtable\.json.*HTTP 404/));
    expect(fake.seeds).toHaveLength(0);
  });

  it('blocks bad parameters and cancels a running sweep', async () => {
    const fake = fakeEngine({ hang: true });
    await renderR2({ engine: fake.engine, createEngine: fake.createEngine, readPreset: readPreset });
    fill('0.8, 0', '2');
    expect(screen.getByRole('button', { name: 'Run R2 sweep' })).toHaveProperty('disabled', true);
    expect(screen.getByLabelText('Total offered loads (fractions of the link)').getAttribute('aria-invalid')).toBe('true');
    fill('0.8', '2');
    fireEvent.click(screen.getByRole('button', { name: 'Run R2 sweep' }));
    await waitFor(() => expect(fake.seeds.length).toBeGreaterThan(0));
    expect(screen.getByTestId('r2-status').textContent).toMatch(/^Running: 0 of 8 runs/);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    });
    await waitFor(() => expect(screen.getByTestId('r2-status').textContent).toBe('Cancelled: 0 of 8 runs finished.'));
    const started = fake.seeds.length;
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.seeds.length).toBe(started);
  });

  it('checks an uploaded trace with the engine, shows the line of a refusal, and sweeps with VI replaced by the trace', async () => {
    const fake = fakeEngine();
    const scenarios: string[] = [];
    const checked: string[] = [];
    const engine: Engine = {
      ...fake.engine,
      atLoad: (json: string, load: number) => {
        scenarios.push(json);
        return Promise.resolve({ status: 'done', scenarioJson: JSON.stringify({ ...JSON.parse(json), load }) });
      },
      frameTrace: (text: string) => {
        checked.push(text);
        return Promise.resolve({
          status: 'done',
          check: text.includes('x')
            ? { summary: null, error: { line: 2, message: '"1x" is not a frame size' } }
            : { summary: { frames: 2, total_bytes: 300, mean_bytes: 150, min_bytes: 100, max_bytes: 200, mean_rate_bps: 30000 }, error: null },
        });
      },
    };
    const video = { kind: 'video', rate_bps: 3_000_000, frame_interval_us: 40_000, mtu_bytes: 2048 };
    const withVideo = (name: string) =>
      Promise.resolve(JSON.stringify({ ...JSON.parse(preset(name)), model: { classes: [{ name: 'VI', traffic: { load: 0.45, generator: video } }] } }));
    await renderR2({ engine: engine, createEngine: () => engine as never, readPreset: withVideo, readSampleTrace: () => Promise.resolve('100\n200\n') });
    fill('0.8', '1');
    fireEvent.click(screen.getByRole('radio', { name: /Upload a frame-size trace/ }));
    const run = screen.getByRole('button', { name: 'Run R2 sweep' });
    expect(run).toHaveProperty('disabled', true);
    fireEvent.change(screen.getByLabelText(/Or paste a frame-size trace/), { target: { value: '100\n1x\n' } });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Line 2: "1x" is not a frame size.'));
    expect(run).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Use the sample trace' }));
    await waitFor(() => expect(screen.getByTestId('r2-trace-summary').textContent).toMatch(/^the sample trace: 2 frames, mean 150 B \(100–200 B\)/));
    expect(screen.getByTestId('r2-trace-summary').textContent).toMatch(/mean rate is 3 Mb\/s .*\(0\.45 of each link\)/);
    expect(checked.at(-1)).toBe('100\n200\n');
    await waitFor(() => expect(window.location.hash).toMatch(/&video=trace&trace=[\w-]+$/));
    fireEvent.click(run);
    await waitFor(() => expect(screen.getByTestId('r2-status').textContent).toMatch(/^Done: 4 runs/));
    expect(scenarios).toHaveLength(4);
    for (const json of scenarios) {
      const generator = (JSON.parse(json) as { model: { classes: { traffic: { generator: unknown } }[] } }).model.classes[0]!.traffic.generator;
      expect(generator).toEqual({ kind: 'video_trace', trace: '100\n200\n', frame_interval_us: 40_000, rate_bps: 3_000_000, mtu_bytes: 2048 });
    }
  });

  it('leaves a trace above 32 KiB out of the link and says so', async () => {
    const fake = fakeEngine();
    const engine: Engine = {
      ...fake.engine,
      frameTrace: () =>
        Promise.resolve({
          status: 'done',
          check: { summary: { frames: 8193, total_bytes: 8193000, mean_bytes: 1000, min_bytes: 1000, max_bytes: 1000, mean_rate_bps: 200000 }, error: null },
        }),
    };
    await renderR2({ engine: engine, createEngine: fake.createEngine, readPreset: readPreset });
    fireEvent.click(screen.getByRole('radio', { name: /Upload a frame-size trace/ }));
    fireEvent.change(screen.getByLabelText(/Or paste a frame-size trace/), { target: { value: '1000\n'.repeat(8193) } });
    expect(screen.getByTestId('r2-trace-link-note').textContent).toMatch(/The share link does not include this trace \(it is more than 32 KiB of text\)/);
    await waitFor(() => expect(window.location.hash).toMatch(/&video=trace$/));
    fireEvent.change(screen.getByLabelText(/Or paste a frame-size trace/), { target: { value: '1000\n'.repeat(100) } });
    expect(screen.queryByTestId('r2-trace-link-note')).toBeNull();
    await waitFor(() => expect(window.location.hash).toMatch(/&video=trace&trace=[\w-]+$/));
  });
});
