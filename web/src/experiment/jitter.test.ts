import { describe, expect, it } from 'vitest';
import type { RunResults } from '../generated';
import { admissionCsv, admissionRows, formatCount } from './admission';
import { jitterExtent, jitterPanels, runSummary, type RunSummary } from './data';

/** A run with a bursty class (no connections), and VO / VI connection classes. */
const run = (vi: { samples: number; cdf: [number, number][] }, voSamples: number, viAdmitted = 90): RunSummary => [
  { name: 'NC', throughput: 0.01, meanNs: 100, p99Ns: 200, samples: 5, cdf: [], jitter: null, connections: null },
  { name: 'VO', throughput: 0.04, meanNs: 100, p99Ns: 200, samples: 5, cdf: [], jitter: { samples: voSamples, cdf: voSamples ? [[0, 1]] : [] }, connections: { requested: 50, admitted: 50, refused: 0 } },
  { name: 'VI', throughput: 0.4, meanNs: 100, p99Ns: 200, samples: 5, cdf: [], jitter: vi, connections: { requested: 100, admitted: viAdmitted, refused: 100 - viAdmitted } },
];

describe('R2 jitter CDFs', () => {
  const a = run({ samples: 1, cdf: [[-40, 1]] }, 0);
  const b = run({ samples: 3, cdf: [[-10, 1 / 3], [30, 1]] }, 0);
  const runs = new Map<number, RunSummary[]>([
    [0, [a, b]],
    [1, [b]],
  ]);

  it('one panel per connection class, one signed CDF per scheduler pooled over the seeds', () => {
    const panels = jitterPanels(['DTable', 'DRR'], runs);
    expect(panels.map((p) => p.title)).toEqual(['VO', 'VI']);
    // VO has no samples in these (short) runs: the view says so instead of plotting.
    expect(panels[0]!.samples).toBe(0);
    expect(panels[0]!.series.every((s) => s.points.length === 0)).toBe(true);
    const vi = panels[1]!;
    expect(vi.samples).toBe(1 + 3 + 3);
    // DTable: 1 sample at -40 and 3 with CDF (-10: 1/3, 30: 1), pooled by sample count.
    expect(vi.series[0]).toEqual({ name: 'DTable', colorIndex: 0, points: [[-40, 0.25], [-10, 0.5], [30, 1]] });
    expect(vi.series[1]!.points).toEqual([[-10, 1 / 3], [30, 1]]);
    // The symmetric axis reaches the largest magnitude (negative here).
    expect(jitterExtent(panels)).toBe(40);
  });

  it('keeps the jitter CDF and the connection counts from the engine results', () => {
    const results = {
      classes: [
        { name: 'VI', throughput: 0.4, latency_ns: { mean: 1, p99: 2, samples: 3, cdf: [[1, 1]] }, jitter_ns: { samples: 2, cdf: [[-5, 0.5], [5, 1]] }, connections: { requested: 10, admitted: 8, refused: 2 } },
        { name: 'BE', throughput: 0.1, latency_ns: { mean: 1, p99: 2, samples: 3, cdf: [[1, 1]] } },
      ],
    } as unknown as RunResults;
    const [vi, be] = runSummary(results, true);
    expect(vi!.jitter).toEqual({ samples: 2, cdf: [[-5, 0.5], [5, 1]] });
    expect(vi!.connections).toEqual({ requested: 10, admitted: 8, refused: 2 });
    expect(be!.jitter).toBeNull();
    expect(be!.connections).toBeNull();
    // Away from the highest load the CDF is not kept (memory), the counts are.
    expect(runSummary(results, false)[0]!.jitter).toEqual({ samples: 2, cdf: [] });
  });
});

describe('R2 admission table', () => {
  it('one row per connection class when every scheduler admits the same, seed by seed', () => {
    const runs = new Map<number, RunSummary[]>([
      [0, [run({ samples: 0, cdf: [] }, 0, 90), run({ samples: 0, cdf: [] }, 0, 94)]],
      [1, [run({ samples: 0, cdf: [] }, 0, 90), run({ samples: 0, cdf: [] }, 0, 94)]],
    ]);
    const { rows, sameForAll } = admissionRows(['DTable', 'DRR'], runs);
    expect(sameForAll).toBe(true);
    expect(rows.map((r) => [r.className, r.scheduler, r.runs])).toEqual([
      ['VO', null, 2],
      ['VI', null, 2],
    ]);
    expect(formatCount(rows[0]!.admitted)).toBe('50');
    expect(formatCount(rows[1]!.admitted)).toBe('92 (90–94)');
    expect(formatCount(rows[1]!.refused)).toBe('8 (6–10)');
    expect(formatCount({ mean: 33972.5, min: 33962, max: 33983 })).toBe('33972.5 (33962–33983)');
    const csv = admissionCsv(['DTable', 'DRR'], rows).split('\r\n');
    expect(csv[0]).toBe('class,scheduler,runs,requested_mean,requested_min,requested_max,admitted_mean,admitted_min,admitted_max,refused_mean,refused_min,refused_max');
    expect(csv[2]).toBe('VI,all,2,100,100,100,92,90,94,8,6,10');
  });

  it('per scheduler when the counts differ', () => {
    const runs = new Map<number, RunSummary[]>([
      [0, [run({ samples: 0, cdf: [] }, 0, 90)]],
      [1, [run({ samples: 0, cdf: [] }, 0, 91)]],
    ]);
    const { rows, sameForAll } = admissionRows(['DTable', 'DRR'], runs);
    expect(sameForAll).toBe(false);
    expect(rows.map((r) => [r.className, r.scheduler, r.admitted.mean])).toEqual([
      ['VO', 0, 50],
      ['VO', 1, 50],
      ['VI', 0, 90],
      ['VI', 1, 91],
    ]);
  });
});
