import { describe, expect, it } from 'vitest';
import { colorFor } from '../charts/palette';
import type { RunResults } from '../generated';
import { compareCdfSeries, compareCsv, compareRows, dashFor, runLabel, throughputGroups, uniqueLabel, type ComparedRun } from './compareData';

export function fakeResults(kind: string, throughputs: number[], scenario = 'R1'): RunResults {
  return {
    engine: 'qoslab-core test',
    scenario,
    seed: 1,
    duration_ns: 1e6,
    warmup_ns: 1e5,
    link_rate_gbps: 2,
    events: 10,
    generated: 10,
    delivered: 10,
    in_flight: 0,
    scheduler: { kind, cost: { decisions: 1, entries_visited: 0, bitmap_words: 0, classes_examined: 0, tag_computations: 0, heap_operations: 0 } },
    classes: throughputs.map((t, i) => ({
      name: `VC${i}`,
      offered: 0.25,
      throughput: t,
      packets: 5,
      generated: 5,
      delivered: 5,
      in_flight: 0,
      latency_ns: { samples: 5, mean: 1000 * (i + 1), min: 500, p50: 900, p99: 2000 * (i + 1), max: 3000 * (i + 1), cdf: [[500, 0.5], [3000, 1]] },
    })),
  };
}

const runs: ComparedRun[] = [
  { id: 1, label: 'AS', results: fakeResults('as_basic', [0.02, 0.06, 0.24, 0.48]) },
  { id: 2, label: 'IBA', results: fakeResults('iba', [0.1, 0.15, 0.25, 0.3]) },
  { id: 3, label: 'DTable', results: fakeResults('dtable', [0.2, 0.2, 0.2, 0.2, 0.1]) },
];

describe('comparison data', () => {
  it('labels runs by scenario name and scheduler, uniquely', () => {
    expect(runLabel(fakeResults('wf2q_plus', [1], 'Mix'))).toBe('Mix · WF²Q+');
    expect(uniqueLabel('A', [{ label: 'A' }, { label: 'A (2)' }])).toBe('A (3)');
    expect(uniqueLabel('B', [{ label: 'A' }])).toBe('B');
  });

  it('one CDF series per (run, class): colour by class, dash by run', () => {
    const series = compareCdfSeries(runs);
    expect(series).toHaveLength(4 + 4 + 5);
    expect(series[0]).toMatchObject({ id: 'run1:0', label: 'VC0 · AS', color: colorFor(0), dash: undefined });
    expect(series[5]).toMatchObject({ id: 'run2:1', color: colorFor(1), dash: dashFor(1) });
    expect(series[12]).toMatchObject({ id: 'run3:4', color: colorFor(4), dash: dashFor(2) });
    expect(new Set(series.map((s) => s.id)).size).toBe(13);
    expect(dashFor(0)).toBeUndefined();
    expect(dashFor(1)).not.toBe(dashFor(2));
  });

  it('throughput groups: per class, one bar per run, null where a run lacks the class', () => {
    const groups = throughputGroups(runs);
    expect(groups).toHaveLength(5);
    expect(groups[3]?.bars.map((b) => b.value)).toEqual([0.48, 0.3, 0.2]);
    expect(groups[4]?.bars.map((b) => b.value)).toEqual([null, null, 0.1]);
    expect(groups[0]?.name).toBe('VC0');
  });

  it('numbers table rows run × class and CSV', () => {
    const rows = compareRows(runs);
    expect(rows).toHaveLength(13);
    expect(rows[6]).toMatchObject({ run: 1, runLabel: 'IBA', classIndex: 2, throughput: 0.25, mean: 3000, p99: 6000, max: 9000 });
    const csv = compareCsv([{ ...runs[0]!, label: 'A, "quoted"' }]).split('\r\n');
    expect(csv[0]).toBe('run,scheduler,class,offered,throughput,mean_ns,p99_ns,max_ns');
    expect(csv[1]).toBe('"A, ""quoted""",as_basic,VC0,0.25,0.02,1000,2000,3000');
    expect(csv).toHaveLength(6); // header, 4 rows, final empty after CRLF
  });
});
