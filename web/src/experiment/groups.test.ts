import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunSummary } from './data';
import { pointClasses, pointKey, pointSamples, type Points } from './data';
import { defaultPanelIndices, groupedPanels, panelsOf, selectedConfigurations, seriesOf } from './groups';
import { parseStudyHash, studyHash } from './route';
import { estimateSeconds, estimateSweepSeconds, parseStudy, type Study } from './study';

const r3Text = readFileSync(join(process.cwd(), 'public/studies/r3.json'), 'utf8');

function study(text: string): Study {
  const parsed = parseStudy(text);
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  return parsed.study;
}

/** R3 as bundled: an InfiniBand and an Omni-Path configuration per topology, interleaved. */
const withOpa = (): Study => study(r3Text);

/** R3's JSON with the InfiniBand configurations only (as before the Omni-Path presets). */
function ibOnlyRaw(): Record<string, unknown> & { configurations: Record<string, unknown>[] } {
  const raw = JSON.parse(r3Text) as Record<string, unknown> & { configurations: Record<string, unknown>[] };
  raw.configurations = raw.configurations.filter((c) => c.series === 'InfiniBand');
  return raw;
}

/** A run whose classes have these throughputs in flits/cycle/node and mean latencies. */
const run = (flits: number[], mean: number): RunSummary =>
  flits.map((f, i) => ({ name: `SL${i}`, throughput: f, flits: f, meanNs: mean + i, p99Ns: null, samples: 10, cdf: [] }));

describe('grouped studies (R3)', () => {
  it('R3 is a grouped study: a panel per topology, a line per switch, the 4-ary 3-tree by default', () => {
    const s = study(JSON.stringify(ibOnlyRaw()));
    expect(s.groups).toEqual({ panel: 'Topology', series: 'Switch', defaultPanels: ['4-ary 3-tree'] });
    expect(panelsOf(s)).toEqual(['4-ary 3-tree', '24-ary 2-tree', '8x8 torus', '8x8x8 torus']);
    expect(seriesOf(s)).toEqual(['InfiniBand']);
    expect(defaultPanelIndices(s)).toEqual([0]);
    expect(selectedConfigurations(s, [0])).toEqual([0]);
    expect(selectedConfigurations(s, [1, 3])).toEqual([1, 3]);
    expect(s.plots.map((p) => (p.kind === 'metric' ? p.metric : p.kind))).toEqual(['meanNs', 'flitsPerCycle', 'admission']);
    // The bundled study adds the Omni-Path presets as configurations: panels stay, a series appears.
    const both = withOpa();
    expect(both.configurations.map((c) => c.preset)).toEqual(s.configurations.flatMap((c) => [c.preset, c.preset.replace(/-ib$/, '-opa')]));
    expect(panelsOf(both)).toEqual(panelsOf(s));
    expect(seriesOf(both)).toEqual(['InfiniBand', 'Omni-Path']);
    expect(selectedConfigurations(both, [0])).toEqual([0, 1]);
    expect(selectedConfigurations(both, [0, 2])).toEqual([0, 1, 4, 5]);
  });

  it('names every problem of a bad grouping with its path', () => {
    const raw = ibOnlyRaw();
    const bad = structuredClone(raw);
    bad.configurations[1] = { ...bad.configurations[1], panel: '4-ary 3-tree', msPerSimulatedMs: -1 };
    delete bad.configurations[2]?.series;
    bad.groups = { panel: 'Topology', series: '', defaultPanels: ['fat tree'] };
    const parsed = parseStudy(JSON.stringify(bad));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok)
      expect(parsed.problems).toEqual([
        'configurations[1].msPerSimulatedMs: must be above 0',
        'configurations[2].series: must be a non-empty text',
        'groups.series: must be a non-empty text',
        'groups.defaultPanels[0]: “fat tree” is not the panel of any configuration',
        'configurations[1]: the same panel and series as configurations[0]',
      ]);
    // Panels without groups are refused, not ignored.
    const loose = structuredClone(raw);
    delete loose.groups;
    const p2 = parseStudy(JSON.stringify(loose));
    expect(p2.ok).toBe(false);
    if (!p2.ok) expect(p2.problems).toContain('configurations[0].panel: only in a study with "groups"');
  });

  it('draws a panel per topology and a line per switch for one SL, or every SL as small multiples', () => {
    const s = withOpa();
    // The sweep ran the 4-ary 3-tree and the 8x8 torus: configurations 0, 1, 4, 5.
    const configs = selectedConfigurations(s, [0, 2]);
    const loads = [0.7, 0.9];
    const points = new Map<string, { load: number; runs: number; classes: ReturnType<typeof pointClasses> }>();
    configs.forEach((_, k) =>
      loads.forEach((load, li) => {
        const runs = [run([0.1 * (k + 1), load], 100 * (k + 1)), run([0.1 * (k + 1) + 0.02, load], 100 * (k + 1) + 20)];
        const { names, samples, metrics } = pointSamples(runs);
        expect(metrics).toEqual(['throughput', 'meanNs', 'p99Ns', 'flitsPerCycle']);
        // Mean and a fixed half-width, as the engine's mean_ci90 would give.
        const stats = samples.map((v) => (v.length ? [v.reduce((a, b) => a + b, 0) / v.length, 0.01] : [NaN, NaN]));
        points.set(pointKey(k, li), { load, runs: 2, classes: pointClasses(names, stats, metrics) });
      }),
    );
    const one = groupedPanels(s, configs, loads, points as Points, 'flitsPerCycle', 0);
    expect(one.map((p) => p.title)).toEqual(['4-ary 3-tree', '8x8 torus']);
    expect(one[1]?.series.map((x) => [x.name, x.colorIndex])).toEqual([
      ['InfiniBand', 0],
      ['Omni-Path', 1],
    ]);
    // The 8x8 torus' Omni-Path line is sweep configuration 3: SL0 at 0.41 flits/cycle/node, band ± 0.01.
    expect(one[1]?.series[1]?.points).toEqual([
      [0.7, expect.closeTo(0.41, 9)],
      [0.9, expect.closeTo(0.41, 9)],
    ]);
    expect(one[1]?.series[1]?.band?.[0]).toEqual([0.7, expect.closeTo(0.4, 9), expect.closeTo(0.42, 9)]);
    const all = groupedPanels(s, configs, loads, points as Points, 'meanNs', 'all', 1000);
    expect(all.map((p) => p.title)).toEqual(['4-ary 3-tree · SL0', '4-ary 3-tree · SL1', '8x8 torus · SL0', '8x8 torus · SL1']);
    expect(all[3]?.series[0]?.points[0]).toEqual([0.7, expect.closeTo(0.311, 9)]);
  });

  it('estimates a sweep from each configuration’s cost, as the workers take the runs', () => {
    const s = study(r3Text);
    // The 4-ary 3-tree alone: 4 loads x 3 seeds of 100 µs at 15 000 ms per simulated ms on 2 workers: 6 rounds of 1.5 s.
    expect(estimateSweepSeconds(s, [0], 4, 3, 100, 2)).toBeCloseTo(9);
    // One cost for all: the same as estimateSeconds.
    expect(estimateSweepSeconds(s, [0], 4, 3, 100, 2)).toBeCloseTo(estimateSeconds(s, 12, 100, 2));
    // The 8x8x8 torus (InfiniBand: configuration 6) costs about 100 times as much per run: one run of it holds a worker for 160 s.
    expect(estimateSweepSeconds(s, [0, 6], 1, 1, 100, 2)).toBeCloseTo(160);
  });

  it('carries the panels run in the share link, and says when they are missing or wrong', () => {
    const s = study(r3Text);
    const defaults = { loads: s.axis.values, seeds: s.seeds, durationUs: s.durationUs, panels: defaultPanelIndices(s), panelCount: panelsOf(s).length };
    const params = { loads: [0.7, 1], seeds: 2, firstSeed: 5, durationUs: 50, panels: [0, 2] };
    const hash = studyHash('view=r3', params);
    expect(hash).toBe('view=r3&loads=0.7,1&seeds=2&seed=5&us=50&panels=0,2');
    expect(parseStudyHash(hash, defaults)).toEqual({ params, problems: [], video: { source: 'synthetic', trace: null } });
    const cut = parseStudyHash('view=r3&loads=0.7,1&seeds=2&seed=5&us=50', defaults);
    expect(cut.params.panels).toEqual([0]);
    expect(cut.problems[0]).toContain('it does not say panels');
    const wrong = parseStudyHash('view=r3&loads=0.7&seeds=2&seed=&us=&panels=0,7', defaults);
    expect(wrong.params.panels).toEqual([0]);
    expect(wrong.problems).toEqual(['panels: Panels are numbers from 0 to 3, each once.']);
    expect(parseStudyHash('view=r3&loads=0.7&seeds=2&seed=&us=&panels=', defaults).problems).toEqual(['panels: Choose at least one panel to run.']);
  });
});
