import { describe, expect, it } from 'vitest';
import {
  bandPanels,
  formatImprovement,
  improvement,
  improvementCsv,
  improvementRows,
  planJobs,
  pointClasses,
  pointKey,
  pointSamples,
  pointsCsv,
  poolCdfs,
  tableLoads,
  withSeed,
  seedOf,
  type ClassPoint,
  type RunSummary,
  metricCsv,
  significant,
} from './data';
import { defaultParams, parseStudyHash, studyHash } from './route';

const R2 = { loads: [0.76, 0.8, 0.84, 0.88, 0.92, 0.96, 1], seeds: 10 };

const run = (t: number, mean: number | null, p99: number | null): RunSummary => [
  { name: 'VO', throughput: t, meanNs: mean, p99Ns: p99, samples: 10, cdf: [] },
  { name: 'BE', throughput: t * 2, meanNs: null, p99Ns: null, samples: 0, cdf: [] },
];

describe('study route', () => {
  it('defaults are the study’s: 0.76 .. 1.0, 10 seeds for R2', () => {
    const p = defaultParams(R2);
    expect(p.loads[0]).toBe(0.76);
    expect(p.loads.at(-1)).toBe(1);
    expect(p.seeds).toBe(10);
    expect(parseStudyHash('#view=r2', R2)).toEqual({ params: p, problems: [], video: { source: 'synthetic', trace: null } });
  });

  it('round-trips every parameter through the hash', () => {
    const params = { loads: [0.8, 0.9, 1], seeds: 2, firstSeed: 7, durationUs: 1500, panels: null };
    const hash = studyHash('view=r2', params);
    expect(hash).toBe('view=r2&loads=0.8,0.9,1&seeds=2&seed=7&us=1500');
    expect(parseStudyHash(`#${hash}`, R2)).toEqual({ params, problems: [], video: { source: 'synthetic', trace: null } });
    // Each preset's seed and duration are written empty, and read back.
    const presets = { ...params, firstSeed: null, durationUs: null };
    expect(studyHash('view=study&id=r2', presets)).toBe('view=study&id=r2&loads=0.8,0.9,1&seeds=2&seed=&us=');
    expect(parseStudyHash(studyHash('view=study&id=r2', presets), R2)).toEqual({ params: presets, problems: [], video: { source: 'synthetic', trace: null } });
    // Encoded commas (as some apps rewrite links) read the same.
    expect(parseStudyHash('view=r2&loads=0.8%2C0.9&seeds=3&seed=&us=', R2).params.loads).toEqual([0.8, 0.9]);
  });

  it('a cut-off link warns that defaults replace what it lost', () => {
    const cut = parseStudyHash('view=r2&loads=0.8,0.9,1&se', R2);
    expect(cut.params.seeds).toBe(10);
    expect(cut.problems).toHaveLength(1);
    expect(cut.problems[0]).toMatch(/^The link looks cut off or edited \(it has “se”\): it does not say seeds, seed, us, so the study’s defaults are used/);
    expect(parseStudyHash('view=r2&loads=0.8,0.9,1&seeds=2&seed=5', R2).problems[0]).toMatch(/does not say us,/);
  });

  it('a damaged parameter falls back to its default and is reported', () => {
    const { params, problems } = parseStudyHash('view=r2&loads=0.8,x&seeds=0&seed=-1&us=2.5', R2);
    expect(params).toEqual(defaultParams(R2));
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^loads: .*“x”/);
    expect(problems[1]).toMatch(/^seeds: .*1 to 100/);
  });
});

describe('R2 data', () => {
  it('plans every run load by load, then scheduler, then seed', () => {
    const jobs = planJobs(2, [0.8, 1], 3);
    expect(jobs).toHaveLength(12);
    expect(jobs.slice(0, 4).map((j) => [j.loadIndex, j.scheduler, j.seedIndex])).toEqual([
      [0, 0, 0],
      [0, 0, 1],
      [0, 0, 2],
      [0, 1, 0],
    ]);
    expect(jobs.every((j, i) => j.index === i)).toBe(true);
    expect(jobs[11]).toMatchObject({ load: 1, loadIndex: 1, scheduler: 1, seedIndex: 2 });
  });

  it('collects per-class samples, leaving out runs without packets, and maps the engine statistics back', () => {
    const runs = [run(0.1, 1000, 3000), run(0.2, null, null), run(0.3, 2000, 5000)];
    const { names, samples } = pointSamples(runs);
    expect(names).toEqual(['VO', 'BE']);
    expect(samples).toEqual([[0.1, 0.2, 0.3], [1000, 2000], [3000, 5000], [0.2, 0.4, 0.6], [], []]);
    const stats = samples.map((v) => [v.length ? v[0]! : NaN, v.length > 1 ? 1 : NaN]);
    const classes = pointClasses(names, stats);
    const none = { mean: null, ci90: null };
    expect(classes[0]).toEqual({
      name: 'VO',
      throughput: { mean: 0.1, ci90: 1 },
      meanNs: { mean: 1000, ci90: 1 },
      p99Ns: { mean: 3000, ci90: 1 },
      violations: none,
      accessesPerPacket: none,
      cyclesPerPacket: none,
      budgetCycles: none,
      sustainedPacketsPerS: none,
      sustainedStreams: none,
      activeStreams: none,
      flitsPerCycle: none,
    });
    expect(classes[1]?.meanNs).toEqual({ mean: null, ci90: null });
  });

  it('keeps a network processor’s figures: window violations per class, accesses and cycles per packet', () => {
    const np = (v: number, a: number) => [{ ...run(0.1, 1000, 3000)[0]!, np: { violations: v, accessesPerPacket: a, cyclesPerPacket: a * 20 } }];
    const { names, samples } = pointSamples([np(0, 10), np(4, 12)]);
    expect(names).toEqual(['VO']);
    // The budget, sustained rate and streams and active streams: none given, empty lists.
    expect(samples).toEqual([[0.1, 0.1], [1000, 1000], [3000, 3000], [0, 4], [10, 12], [200, 240], [], [], [], []]);
    const classes = pointClasses(names, samples.map((v) => [v[1]!, 0.5]));
    expect(classes[0]?.violations).toEqual({ mean: 4, ci90: 0.5 });
    expect(classes[0]?.cyclesPerPacket).toEqual({ mean: 240, ci90: 0.5 });
  });

  it('pools CDFs weighted by samples (the CDF of all packets together)', () => {
    const a = { samples: 1, cdf: [[10, 1]] as [number, number][] };
    const b = { samples: 3, cdf: [[20, 1 / 3], [30, 1]] as [number, number][] };
    expect(poolCdfs([a, b])).toEqual([
      [10, 0.25],
      [20, 0.5],
      [30, 1],
    ]);
    expect(poolCdfs([{ samples: 0, cdf: [] }])).toEqual([]);
    // One run pools to itself.
    expect(poolCdfs([b])).toEqual(b.cdf);
  });

  it('improvement is the study’s (other − DTable) / DTable, in % of the baseline', () => {
    expect(improvement(80, 100)).toBeCloseTo(25);
    expect(improvement(100, 290)).toBeCloseTo(190);
    expect(improvement(150, 100)).toBeCloseTo(-33.333);
    expect(improvement(null, 100)).toBeNull();
    expect(improvement(0, 10)).toBeNull();
    expect(improvement(10, 0)).toBeCloseTo(-100);
    expect([12.345, -4, -0.04, 0.04, null].map(formatImprovement)).toEqual(['+12.3 %', '−4.0 %', '0.0 %', '0.0 %', '—']);
    expect(tableLoads([0.76, 0.8, 0.84, 0.88, 1])).toEqual([0.76, 0.84, 1]);
    expect(tableLoads([0.8, 1])).toEqual([0.8, 1]);
    expect(tableLoads([0.9])).toEqual([0.9]);
  });

  const cls = (mean: number, ci: number | null): ClassPoint => ({
    name: 'VO',
    throughput: { mean: mean / 1000, ci90: ci },
    meanNs: { mean, ci90: ci },
    p99Ns: { mean: mean * 2, ci90: ci },
    violations: { mean: null, ci90: null },
    flitsPerCycle: { mean: null, ci90: null },
    accessesPerPacket: { mean: null, ci90: null },
    cyclesPerPacket: { mean: null, ci90: null },
    budgetCycles: { mean: null, ci90: null },
    sustainedPacketsPerS: { mean: null, ci90: null },
    sustainedStreams: { mean: null, ci90: null },
    activeStreams: { mean: null, ci90: null },
  });
  const loads = [0.8, 0.9, 1];
  const points = new Map<string, { load: number; runs: number; classes: ClassPoint[] }>();
  for (const s of [0, 1]) {
    loads.forEach((load, li) => {
      points.set(pointKey(s, li), { load, runs: 2, classes: [cls(s === 0 ? 100 * (li + 1) : 200 * (li + 1), li === 1 ? null : 10)] });
    });
  }

  it('improvement rows per class, table load and other scheduler, marked where the intervals do not overlap', () => {
    const rows = improvementRows(2, loads, points);
    expect(rows.map((r) => [r.className, r.load, r.other, r.mean, r.p99, r.meanSignificant])).toEqual([
      ['VO', 0.8, 1, 100, 100, true],
      ['VO', 0.9, 1, 100, 100, false],
      ['VO', 1, 1, 100, 100, true],
    ]);
    expect(improvementCsv(['DTable', 'DRR'], rows).split('\r\n')[1]).toBe('VO,0.8,DRR,100,100,true,true');
    // The other way round (DRR as the baseline): DTable is 50 % faster.
    expect(improvementRows(2, loads, points, 1)[0]).toMatchObject({ other: 0, mean: -50 });
  });

  it('significance: the 90% intervals do not overlap', () => {
    expect(significant({ mean: 100, ci90: 10 }, { mean: 121, ci90: 10 })).toBe(true);
    expect(significant({ mean: 100, ci90: 10 }, { mean: 119, ci90: 10 })).toBe(false);
    expect(significant({ mean: 100, ci90: null }, { mean: 500, ci90: 10 })).toBe(false);
  });

  it('each chart’s CSV holds its own metric only', () => {
    const mean = metricCsv(['DTable', 'DRR'], loads, points, 'meanNs').split('\r\n');
    const p99 = metricCsv(['DTable', 'DRR'], loads, points, 'p99Ns').split('\r\n');
    expect(mean[0]).toBe('scheduler,load,class,runs,mean_ns,mean_ns_ci90');
    expect(mean[1]).toBe('DTable,0.8,VO,2,100,10');
    expect(p99[0]).toBe('scheduler,load,class,runs,p99_ns,p99_ns_ci90');
    expect(p99[1]).toBe('DTable,0.8,VO,2,200,10');
  });

  it('band panels: one per class, a series per scheduler, bands only where the interval exists', () => {
    const panels = bandPanels(['DTable', 'DRR'], loads, points, 'meanNs', 1000);
    expect(panels).toHaveLength(1);
    const dt = panels[0]!.series[0]!;
    expect(dt.points).toEqual([[0.8, 0.1], [0.9, 0.2], [1, 0.3]]);
    expect(dt.band).toEqual([[0.8, 0.09, 0.11], [1, 0.29, 0.31]]);
    const lines = pointsCsv(['DTable', 'DRR'], loads, points).split('\r\n');
    expect(lines[0]).toBe('scheduler,load,class,runs,throughput,throughput_ci90,mean_ns,mean_ns_ci90,p99_ns,p99_ns_ci90');
    expect(lines[2]).toBe('DTable,0.9,VO,2,0.2,,200,,400,');
    expect(lines).toHaveLength(1 + 6 + 1);
  });

  it('sets and reads seeds', () => {
    const json = JSON.stringify({ name: 'x', seed: 3 });
    expect(seedOf(json)).toBe(3);
    expect(JSON.parse(withSeed(json, 12)).seed).toBe(12);
    expect(withSeed(json, null)).toBe(json);
  });
});
