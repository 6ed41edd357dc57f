import { describe, expect, it } from 'vitest';
import { poolDelays, pooledDelays, delayTableCsv } from './delays';

describe('poolDelays', () => {
  it('pools means, maxima and standard deviations over runs', () => {
    // Run A: 2, 4 (mean 3, s = √2); run B: 6, 8, 10 (mean 8, s = 2). All five: mean 6,
    // sample variance ((2-6)² + (4-6)² + 0 + 4 + 16) / 4 = 10.
    const p = poolDelays([
      { samples: 2, meanNs: 3, maxNs: 4, stdNs: Math.SQRT2 },
      { samples: 3, meanNs: 8, maxNs: 10, stdNs: 2 },
    ]);
    expect(p.meanNs).toBeCloseTo(6, 12);
    expect(p.maxNs).toBe(10);
    expect(p.stdNs).toBeCloseTo(Math.sqrt(10), 12);
    expect(p.samples).toBe(5);
  });

  it('has no std without the runs’ std and nothing without packets', () => {
    expect(poolDelays([{ samples: 3, meanNs: 1, maxNs: 2, stdNs: null }]).stdNs).toBeNull();
    expect(poolDelays([{ samples: 0, meanNs: null }]).meanNs).toBeNull();
  });

  it('builds the table rows per class and configuration and its CSV', () => {
    const run = (mean: number) => [{ name: 'a', throughput: 0, meanNs: mean, p99Ns: null, samples: 4, cdf: [], maxNs: mean * 2, stdNs: 1 }];
    const rows = pooledDelays(['P', 'W'], new Map([[0, [run(10)]], [1, [run(20)]]]));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.cells.map((c) => c?.meanNs)).toEqual([10, 20]);
    expect(delayTableCsv(['P', 'W'], rows)).toBe('class,configuration,mean_ns,max_ns,std_ns,packets\n"a","P",10,20,1,4\n"a","W",20,40,1,4\n');
  });
});
