// The study axes besides load (a network processor's streams and packet size), the metric
// plots' reference line and the related studies: R5's three experiments.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bandPanels, metricCsv, pointClasses, pointKey, pointsCsv, pointSamples, runSummary, type RunSummary } from './data';
import { parseStudyHash, studyHash } from './route';
import { AXIS_INFO, parseAxisValues, parseStudy, type Study } from './study';
import type { RunResults } from '../generated';

const read = (id: string) => readFileSync(join(process.cwd(), `public/studies/${id}.json`), 'utf8');
const study = (id: string): Study => {
  const parsed = parseStudy(read(id));
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  return parsed.study;
};

/** A minimal valid study with `axis` (and `extra` fields) as JSON text. */
const withAxis = (axis: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    format: 1,
    id: 'x',
    title: 't',
    short: 's',
    configurations: [{ preset: 'p', label: 'P' }],
    axis,
    seeds: 1,
    plots: [{ kind: 'metric', id: 'a', metric: 'accessesPerPacket', title: 'A' }],
    cost: { msPerSimulatedMs: 1 },
    ...extra,
  });

describe('study axes', () => {
  it('R5’s three experiments are studies: load (U), streams, packet size, linked to each other', () => {
    const r5 = study('r5');
    expect(r5.axis.kind).toBe('load');
    expect(r5.related?.map((r) => r.study)).toEqual(['r5-streams', 'r5-budget']);
    expect(r5.description).not.toContain('command line');
    const streams = study('r5-streams');
    expect(streams.axis).toMatchObject({ kind: 'streams', values: [10, 30, 100, 300, 1000, 3000, 10000] });
    expect(streams.configurations.map((c) => c.preset)).toEqual(['r5-accesses-heap', 'r5-accesses-hilq']);
    expect(streams.plots.map((p) => (p.kind === 'metric' ? p.metric : p.kind))).toEqual(['accessesPerPacket', 'cyclesPerPacket', 'activeStreams']);
    const budget = study('r5-budget');
    expect(budget.axis).toMatchObject({ kind: 'packetBytes', values: [128, 256, 512, 768, 1024] });
    expect(budget.configurations.map((c) => c.preset)).toEqual(['r5-budget-heap', 'r5-budget-hilq']);
    expect(budget.plots[0]).toMatchObject({ kind: 'metric', metric: 'cyclesPerPacket', reference: 'budgetCycles' });
    expect(budget.related?.map((r) => r.study)).toEqual(['r5', 'r5-streams']);
  });

  it('each kind maps to the engine’s axis and its CSV column; streams on a log axis', () => {
    expect(AXIS_INFO.load).toMatchObject({ engine: 'load', csv: 'load', logX: false });
    expect(AXIS_INFO.streams).toMatchObject({ engine: 'streams', csv: 'streams', logX: true });
    expect(AXIS_INFO.packetBytes).toMatchObject({ engine: 'packet_bytes', csv: 'packet_bytes', logX: false });
  });

  it('names the path and the rule of every bad axis or reference', () => {
    const problems = (text: string) => {
      const p = parseStudy(text);
      return p.ok ? [] : p.problems;
    };
    expect(problems(withAxis({ kind: 'streams', label: 'Streams', values: [10, 10.5, 0, 30000] }))).toEqual([
      'axis.values[1]: must be a whole number of streams from 1 to 20000',
      'axis.values[2]: must be a whole number of streams from 1 to 20000',
      'axis.values[3]: must be a whole number of streams from 1 to 20000',
    ]);
    expect(problems(withAxis({ kind: 'packetBytes', label: 'B', values: [128, 99999] }))).toEqual(['axis.values[1]: must be a whole number of bytes from 1 to 65536']);
    expect(problems(withAxis({ kind: 'packetBytes', label: 'B', values: [] }))).toEqual(['axis.values: at least one value']);
    expect(problems(withAxis({ kind: 'packet_bytes', label: 'B', values: [128] }))).toEqual(['axis.kind: “packet_bytes” is not supported (load, streams, packetBytes)']);
    // A load axis keeps its rule: above 0 (a streams count of 10 is a fine load for the parser, not for the form).
    expect(problems(withAxis({ kind: 'load', label: 'U', values: [0.5, -1] }))).toEqual(['axis.values[1]: must be a load above 0']);
    const badReference = withAxis(
      { kind: 'packetBytes', label: 'B', values: [128] },
      { plots: [{ kind: 'metric', id: 'c', metric: 'cyclesPerPacket', reference: 'budget', title: 'C' }] },
    );
    expect(problems(badReference)[0]).toMatch(/^plots\[0\]\.reference: one of throughput, .*budgetCycles/);
    const badRelated = withAxis({ kind: 'streams', label: 'S', values: [10] }, { related: [{ study: 'R5!', label: '' }] });
    expect(problems(badRelated)).toEqual(['related[0].study: a study id (lower-case letters, digits and dashes)', 'related[0].label: must be a non-empty text']);
    expect(parseStudy(withAxis({ kind: 'streams', label: 'S', values: [10] })).ok).toBe(true);
  });

  it('the form and the link read values by the axis’s rule', () => {
    expect(parseAxisValues('1000, 10 100 10', 'streams')).toEqual({ loads: [10, 100, 1000], error: null });
    expect(parseAxisValues('10 12.5', 'streams').error).toBe('“12.5” is not a whole number of streams from 1 to 20000.');
    expect(parseAxisValues('', 'packetBytes').error).toBe('Give at least one value.');
    expect(parseAxisValues('1024,128', 'packetBytes').loads).toEqual([128, 1024]);
    // Loads keep the sweep panel's rule (at most 4).
    expect(parseAxisValues('10', 'load').error).toBe('“10” is not a load above 0 and at most 4.');
    const defaults = { loads: [10, 30], seeds: 2, axis: 'streams' as const };
    const params = { loads: [10, 10000], seeds: 1, firstSeed: null, durationUs: 20000, panels: null };
    const hash = studyHash('view=study&id=r5-streams', params);
    expect(hash).toBe('view=study&id=r5-streams&loads=10,10000&seeds=1&seed=&us=20000');
    expect(parseStudyHash(hash, defaults)).toMatchObject({ params, problems: [] });
    expect(parseStudyHash('view=study&id=r5-streams&loads=10,0.5&seeds=1&seed=&us=', defaults).problems).toEqual([
      'loads: “0.5” is not a whole number of streams from 1 to 20000.',
    ]);
  });
});

/** A network-processor run's results with the cost figures the budget plot needs. */
function npRun(cycles: number, budget: number): RunResults {
  const cls = { name: 'streams', throughput: 0.9, latency_ns: { mean: 1000, p99: 2000, max: 3000, samples: 10, cdf: [] } };
  return {
    classes: [cls],
    network_processor: {
      active_streams: 98.5,
      categories: [{ violations: 3 }],
      cost: { accesses_per_packet: 9, cycles_per_packet: cycles, budget_cycles: budget, sustained_packets_per_s: 232e6 / cycles, sustained_streams: 1000 },
    },
  } as unknown as RunResults;
}

describe('network-processor figures and the reference line', () => {
  const summaries: RunSummary[] = [runSummary(npRun(170, 238), false), runSummary(npRun(180, 238), false)];
  const heap: RunSummary[] = [runSummary(npRun(1900, 238), false)];
  const point = (runs: RunSummary[]) => {
    const { names, samples } = pointSamples(runs);
    // The engine's mean (the half-width is not under test here).
    return pointClasses(
      names,
      samples.map((v) => [v.reduce((a, b) => a + b, 0) / v.length, Number.NaN]),
    );
  };
  const points = new Map([
    [pointKey(0, 0), { load: 128, runs: 1, classes: point(heap) }],
    [pointKey(1, 0), { load: 128, runs: 2, classes: point(summaries) }],
  ]);

  it('a run keeps the budget, the sustained rate and streams, and the active streams', () => {
    expect(summaries[0]?.[0]?.np).toMatchObject({ budgetCycles: 238, sustainedStreams: 1000, activeStreams: 98.5, cyclesPerPacket: 170 });
    const hilq = points.get(pointKey(1, 0))?.classes[0];
    expect(hilq?.cyclesPerPacket.mean).toBe(175);
    expect(hilq?.budgetCycles.mean).toBe(238);
    expect(hilq?.activeStreams.mean).toBe(98.5);
  });

  it('the budget is one more line, from the first configuration; the CSV names the axis and holds both', () => {
    const panels = bandPanels(['Heap', 'HILQ'], [128], points, 'cyclesPerPacket', 1, { metric: 'budgetCycles', name: 'Link budget' });
    expect(panels[0]?.series.map((s) => [s.name, s.colorIndex, s.points])).toEqual([
      ['Heap', 0, [[128, 1900]]],
      ['HILQ', 1, [[128, 175]]],
      ['Link budget', 2, [[128, 238]]],
    ]);
    const csv = metricCsv(['Heap', 'HILQ'], [128], points, 'cyclesPerPacket', 'packet_bytes', ['budgetCycles']).split('\r\n');
    expect(csv[0]).toBe('scheduler,packet_bytes,class,runs,cycles_per_packet,cycles_per_packet_ci90,budget_cycles,budget_cycles_ci90');
    expect(csv[2]).toBe('HILQ,128,streams,2,175,,238,');
    expect(pointsCsv(['Heap', 'HILQ'], [128], points, 'packet_bytes').split('\r\n')[0]).toMatch(/^scheduler,packet_bytes,class,runs,/);
  });
});
