// R6's results: the delay table per class (mean, maximum, standard deviation, every
// configuration side by side, pooled over the seeds at the highest load) and the delay of
// each packet over time per class (the first seed's sampled series). Both export.
import { useMemo, useRef } from 'react';
import { ExportButtons } from '../charts/ExportButtons';
import { downloadText } from '../charts/export';
import { PanelsChart, type Panel } from '../charts/PanelsChart';
import { chooseTimeUnit } from '../charts/units';
import { pooledDelays, seriesCsv, delayTableCsv, type PooledDelay } from './delays';
import type { RunSummary } from './data';

interface Props {
  prefix: string;
  labels: readonly string[];
  cdfRuns: ReadonlyMap<number, RunSummary[]>;
  highest: number;
}

export function DelayTableSection({ prefix, labels, cdfRuns, highest }: Props) {
  const rows = useMemo(() => pooledDelays(labels, cdfRuns), [labels, cdfRuns]);
  const all = rows.flatMap((r) => r.cells.map((c) => c?.maxNs ?? 0));
  const unit = chooseTimeUnit(Math.max(0, ...all));
  const f = (v: number | null | undefined) => (v === null || v === undefined ? '–' : (v / unit.factor).toFixed(1));
  const id = `${prefix}-delay-table`;
  const best = (r: { cells: (PooledDelay | null)[] }, k: keyof PooledDelay) => {
    const vals = r.cells.map((c) => (c ? c[k] : null)).filter((v): v is number => v !== null);
    return vals.length > 1 ? Math.min(...vals) : null;
  };
  return (
    <section className="panel" aria-labelledby={`${id}-title`} data-testid={id}>
      <div className="panel-head">
        <h3 id={`${id}-title`}>Delay per class at load {highest}: mean / max / std dev ({unit.unit})</h3>
        <div className="cdf-toolbar" role="group" aria-label="Delay table: export">
          <button type="button" onClick={() => downloadText(`qoslab-${id}.csv`, 'text/csv;charset=utf-8', delayTableCsv(labels, rows))}>
            Export CSV
          </button>
        </div>
      </div>
      <p className="help">All seeds pooled (mean and standard deviation over every packet of every seed, the largest delay of all). The smallest value of each column pair is in bold.</p>
      <div className="table-scroll">
        <table className="results-table">
          <thead>
            <tr>
              <th scope="col">Class</th>
              {labels.map((l) => (
                <th scope="col" key={l}>
                  {l}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.name}>
                <th scope="row">{r.name}</th>
                {r.cells.map((c, i) => (
                  <td key={labels[i]} data-testid={`${id}-cell`}>
                    {c
                      ? (['meanNs', 'maxNs', 'stdNs'] as const).map((k, j) => (
                          <span key={k}>
                            {j > 0 ? ' / ' : ''}
                            {c[k] !== null && c[k] === best(r, k) ? <strong>{f(c[k])}</strong> : f(c[k])}
                          </span>
                        ))
                      : '–'}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function DelaySeriesSection({ prefix, labels, cdfRuns, highest }: Props) {
  const ref = useRef<SVGSVGElement>(null);
  const id = `${prefix}-delay-series`;
  const first = useMemo(() => labels.map((_, s) => cdfRuns.get(s)?.[0] ?? []), [labels, cdfRuns]);
  const names = first.find((r) => r.length > 0)?.map((c) => c.name) ?? [];
  const top = Math.max(0, ...first.flatMap((r) => r.flatMap((c) => (c.series ?? []).map(([, d]) => d))));
  const unit = chooseTimeUnit(top);
  const panels: Panel[] = names.map((title, c) => ({
    title,
    series: labels.map((name, s) => ({
      name,
      colorIndex: s,
      points: (first[s]?.[c]?.series ?? []).map(([t, d]) => [t / 1e6, d / unit.factor] as const),
    })),
  }));
  return (
    <section className="panel cdf-panel" aria-labelledby={`${id}-title`} data-testid={id}>
      <div className="panel-head">
        <h3 id={`${id}-title`}>Delay per packet over time at load {highest} (first seed)</h3>
        <div className="cdf-toolbar" role="group" aria-label="Delay over time: export">
          <ExportButtons svgRef={ref} filename={`qoslab-${id}`} csv={() => seriesCsv(labels, first)} />
        </div>
      </div>
      <p className="help">Each point is a packet (sampled: at most 1024 a class, every k-th packet delivered, k doubling as the run grows), at its arrival time.</p>
      <PanelsChart panels={panels} title="Delay per packet over time per class" xLabel="Arrival time (ms)" yLabel={`Delay (${unit.unit})`} step independentY svgRef={ref} />
    </section>
  );
}
