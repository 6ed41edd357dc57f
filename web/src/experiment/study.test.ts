import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateSeconds, formatEstimate, loadStudy, parseStudy } from './study';

const r2 = readFileSync(join(process.cwd(), 'public/studies/r2.json'), 'utf8');
const r4 = readFileSync(join(process.cwd(), 'public/studies/r4.json'), 'utf8');

describe('study files', () => {
  it('R2 is a study: four configurations, the spec’s loads and seeds, its plots', () => {
    const parsed = parseStudy(r2);
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    const s = parsed.study;
    expect(s.configurations.map((c) => c.label)).toEqual(['DTable', 'DTable-WF2Q', 'SCFQ', 'DRR']);
    expect(s.axis.values).toEqual([0.76, 0.8, 0.84, 0.88, 0.92, 0.96, 1]);
    expect(s.seeds).toBe(10);
    expect(s.plots.map((p) => p.kind)).toEqual(['metric', 'metric', 'metric', 'cdf', 'jitter', 'admission', 'improvement']);
  });

  it('R4 is a study: the four switch designs, loads up to 1.0, CDFs and jitter', () => {
    const parsed = parseStudy(r4);
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    const s = parsed.study;
    expect(s.configurations.map((c) => c.preset)).toEqual(['r4-traditional-8vc', 'r4-traditional-2vc', 'r4-new-2vc-p', 'r4-new-2vc-b']);
    expect(Math.max(...s.axis.values)).toBe(1);
    expect(s.plots.map((p) => p.kind)).toEqual(['metric', 'cdf', 'cost', 'jitter', 'metric', 'admission']);
  });

  it('names every problem of a bad study', () => {
    const bad = parseStudy(JSON.stringify({ format: 1, id: 'X', title: 't', short: 's', configurations: [], axis: { kind: 'time', label: 'l', values: [] }, seeds: 0, plots: [{ kind: 'pie', id: 'p' }], cost: {} }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.problems).toEqual([
        'id: lower-case letters, digits and dashes',
        'configurations: at least one',
        'axis.kind: “time” is not supported (load, streams, packetBytes)',
        'axis.values: at least one load',
        'plots[0].kind: “pie” is not a plot (metric, cdf, jitter, admission, cost, improvement, delayTable, delaySeries)',
        'seeds: must be a whole number from 1 to 100',
        'cost.msPerSimulatedMs: must be above 0',
      ]);
    }
  });

  it('loads by name and says when a study does not exist', async () => {
    await expect(loadStudy('r2', () => Promise.resolve(r2))).resolves.toMatchObject({ id: 'r2', short: 'R2' });
    await expect(loadStudy('nope', () => Promise.reject(new Error('HTTP 404')))).rejects.toThrow('There is no study “nope” (studies/nope.json: HTTP 404).');
    await expect(loadStudy('r3', () => Promise.resolve(r2))).rejects.toThrow('studies/r3.json says its id is “r2”.');
  });

  it('estimates a sweep from its runs, duration and workers', () => {
    const parsed = parseStudy(r2);
    if (!parsed.ok) throw new Error('r2');
    const per = parsed.study.cost.msPerSimulatedMs / 1000;
    // 16 runs of 1 ms on 2 workers: 8 rounds.
    expect(estimateSeconds(parsed.study, 16, 1000, 2)).toBeCloseTo(8 * per);
    expect(formatEstimate(0.5)).toBe('under a second');
    expect(formatEstimate(40.2)).toBe('about 41 s');
    expect(formatEstimate(600)).toBe('about 10 min');
    expect(formatEstimate(7200)).toBe('about 2.0 h');
  });
});
