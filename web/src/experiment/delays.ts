// Pooling of the delay statistics of several seeds (R6's table) and the CSV forms of the
// delay table and the delay series.
import type { RunSummary } from './data';

export interface PooledDelay {
  meanNs: number | null;
  maxNs: number | null;
  stdNs: number | null;
  samples: number;
}

/**
 * Mean, maximum and standard deviation over every packet of every run: the mean weighted
 * by packets, the largest maximum, and the pooled sample variance
 * (Σ (n_i − 1) s_i² + Σ n_i (m_i − m)²) / (N − 1).
 */
export function poolDelays(runs: ReadonlyArray<{ samples: number; meanNs: number | null; maxNs?: number | null; stdNs?: number | null }>): PooledDelay {
  const ok = runs.filter((r) => r.samples > 0 && r.meanNs !== null);
  const n = ok.reduce((a, r) => a + r.samples, 0);
  if (n === 0) return { meanNs: null, maxNs: null, stdNs: null, samples: 0 };
  const mean = ok.reduce((a, r) => a + r.samples * (r.meanNs ?? 0), 0) / n;
  const maxes = ok.map((r) => r.maxNs).filter((v): v is number => typeof v === 'number');
  const haveStd = ok.every((r) => typeof r.stdNs === 'number' || r.samples < 2);
  let std: number | null = null;
  if (haveStd && n > 1) {
    const ss = ok.reduce((a, r) => a + (r.samples - 1) * (r.stdNs ?? 0) ** 2 + r.samples * ((r.meanNs ?? 0) - mean) ** 2, 0);
    std = Math.sqrt(ss / (n - 1));
  }
  return { meanNs: mean, maxNs: maxes.length > 0 ? Math.max(...maxes) : null, stdNs: std, samples: n };
}

/** Per class, per configuration, the pooled delays of its runs. */
export function pooledDelays(labels: readonly string[], runs: ReadonlyMap<number, readonly RunSummary[]>): { name: string; cells: (PooledDelay | null)[] }[] {
  const names = [...runs.values()].find((r) => r.length > 0)?.[0]?.map((c) => c.name) ?? [];
  return names.map((name, c) => ({
    name,
    cells: labels.map((_, s) => {
      const list = (runs.get(s) ?? []).map((r) => r[c]).filter((x) => x !== undefined);
      return list.length > 0 ? poolDelays(list) : null;
    }),
  }));
}

const q = (t: string) => `"${t.replaceAll('"', '""')}"`;
const num = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));

export function delayTableCsv(labels: readonly string[], rows: ReturnType<typeof pooledDelays>): string {
  const lines = ['class,configuration,mean_ns,max_ns,std_ns,packets'];
  for (const r of rows) {
    r.cells.forEach((c, i) => {
      lines.push([q(r.name), q(labels[i] ?? ''), num(c?.meanNs), num(c?.maxNs), num(c?.stdNs), num(c?.samples)].join(','));
    });
  }
  return lines.join('\n') + '\n';
}

export function seriesCsv(labels: readonly string[], first: readonly RunSummary[]): string {
  const lines = ['class,configuration,arrival_ns,delay_ns'];
  first.forEach((run, s) => {
    for (const c of run) for (const [t, d] of c.series ?? []) lines.push([q(c.name), q(labels[s] ?? ''), t, d].join(','));
  });
  return lines.join('\n') + '\n';
}
