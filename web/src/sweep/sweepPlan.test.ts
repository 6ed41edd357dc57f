import { describe, expect, it } from 'vitest';
import { DEFAULT_LOADS, parseLoads, planPoints, runPoints, workerCount, type PointOutcome, type SweepPoint } from './sweepPlan';
import { sweepCsv, sweepPanels, withDuration, type PointResult } from './sweepData';

describe('sweep plan', () => {
  it('default loads are 0.2 .. 2.0', () => {
    expect(DEFAULT_LOADS).toEqual([0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4, 1.6, 1.8, 2]);
  });

  it('parses load lists: sorted, unique, bounded', () => {
    expect(parseLoads('0.5, 0.1 0.3;0.1')).toEqual({ loads: [0.1, 0.3, 0.5], error: null });
    expect(parseLoads('  ').error).toMatch(/at least one/);
    expect(parseLoads('0.2, x').error).toMatch(/“x”/);
    expect(parseLoads('0').error).toMatch(/above 0/);
    expect(parseLoads('5').error).toMatch(/at most 4/);
  });

  it('plans every (preset, load) point, preset-major', () => {
    const points = planPoints(3, [0.2, 0.4]);
    expect(points.map((p) => [p.index, p.preset, p.load])).toEqual([
      [0, 0, 0.2],
      [1, 0, 0.4],
      [2, 1, 0.2],
      [3, 1, 0.4],
      [4, 2, 0.2],
      [5, 2, 0.4],
    ]);
  });

  it('uses hardwareConcurrency capped at 2 and at the points', () => {
    expect(workerCount(36, 8)).toBe(2);
    expect(workerCount(36, 1)).toBe(1);
    expect(workerCount(1, 8)).toBe(1);
    expect(workerCount(36, undefined)).toBe(1);
  });

  it('runs at most `workers` points at once, each on its own slot, results in plan order', async () => {
    const points = planPoints(2, [0.1, 0.2, 0.3]);
    let running = 0;
    let peak = 0;
    const slotsBusy = new Set<number>();
    const finishedOrder: number[] = [];
    const outcomes = await runPoints<number>(
      points,
      2,
      async (p, slot) => {
        expect(slotsBusy.has(slot)).toBe(false);
        slotsBusy.add(slot);
        running++;
        peak = Math.max(peak, running);
        // Later points finish sooner: results must still land by index.
        await new Promise((r) => setTimeout(r, (6 - p.index) * 2));
        running--;
        slotsBusy.delete(slot);
        return { status: 'done', value: p.index * 10 };
      },
      (p) => finishedOrder.push(p.index),
      new AbortController().signal,
    );
    expect(peak).toBe(2);
    expect(outcomes.map((o) => (o.status === 'done' ? o.value : null))).toEqual([0, 10, 20, 30, 40, 50]);
    expect(finishedOrder).toHaveLength(6);
  });

  it('stops taking points when cancelled or when a point fails', async () => {
    const points = planPoints(1, [0.1, 0.2, 0.3, 0.4, 0.5]);
    const abort = new AbortController();
    const started: number[] = [];
    const outcomes = await runPoints<number>(
      points,
      1,
      async (p: SweepPoint, _slot, signal): Promise<PointOutcome<number>> => {
        started.push(p.index);
        if (p.index === 1) abort.abort();
        return signal.aborted ? { status: 'cancelled' } : { status: 'done', value: 1 };
      },
      () => {},
      abort.signal,
    );
    expect(started).toEqual([0, 1]);
    expect(outcomes.map((o) => o.status)).toEqual(['done', 'cancelled', 'cancelled', 'cancelled', 'cancelled']);

    const failing = await runPoints<number>(
      points,
      1,
      async (p) => (p.index === 2 ? { status: 'failed', message: 'boom' } : { status: 'done', value: 1 }),
      () => {},
      new AbortController().signal,
    );
    expect(failing.map((o) => o.status)).toEqual(['done', 'done', 'failed', 'cancelled', 'cancelled']);
  });
});

describe('sweep data', () => {
  const points = planPoints(2, [0.5, 1]);
  const r = (load: number, t: number): PointResult => ({
    load,
    classes: [
      { name: 'A', offered: load / 2, throughput: t },
      { name: 'B', offered: load / 2, throughput: t / 2 },
    ],
  });
  const results = new Map<number, PointResult>([
    [0, r(0.5, 0.25)],
    [1, r(1, 0.4)],
    [3, r(1, 0.5)],
  ]);

  it('one panel per preset, a line per class over the finished loads', () => {
    const panels = sweepPanels(['AS', 'DT'], points, results);
    expect(panels.map((p) => p.title)).toEqual(['AS', 'DT']);
    expect(panels[0]?.series.map((s) => [s.name, s.points])).toEqual([
      ['A', [[0.5, 0.25], [1, 0.4]]],
      ['B', [[0.5, 0.125], [1, 0.2]]],
    ]);
    expect(panels[1]?.series[0]?.points).toEqual([[1, 0.5]]);
  });

  it('CSV rows per (scheduler, load, class)', () => {
    const lines = sweepCsv(['AS', 'DT'], points, results).split('\r\n');
    expect(lines[0]).toBe('scheduler,load,class,offered,throughput');
    expect(lines[1]).toBe('AS,0.5,A,0.25,0.25');
    expect(lines).toHaveLength(1 + 6 + 1);
  });

  it('shortens a scenario, scaling the warm-up alike', () => {
    const json = JSON.stringify({ name: 'x', duration_us: 100000, warmup_us: 10000 });
    expect(JSON.parse(withDuration(json, 5000))).toEqual({ name: 'x', duration_us: 5000, warmup_us: 500 });
    expect(withDuration(json, null)).toBe(json);
  });
});
