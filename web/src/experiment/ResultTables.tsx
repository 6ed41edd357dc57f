// The tables of a study's results: seeds finished per point, admission of connections, and
// the improvement of the baseline configuration over the others (the study's formula, with
// significance marks).
import { useMemo } from 'react';
import { downloadText } from '../charts/export';
import { colorFor } from '../charts/palette';
import { admissionCsv, admissionRows, formatCount } from './admission';
import {
  formatImprovement,
  IMPROVEMENT_FORMULA,
  improvementCsv,
  improvementRows,
  pointKey,
  pointsCsv,
  type ImprovementRow,
  type RunSummary,
} from './data';
import type { Plan, PointMap } from './useSweep';
import { AXIS_INFO } from './study';

/** Seeds finished per (scheduler, load) point, as a table. */
export function PointProgress({ prefix, plan, seedsDone, points }: { prefix: string; plan: Plan; seedsDone: ReadonlyMap<string, number>; points: PointMap }) {
  const { params, labels } = plan;
  const noun = AXIS_INFO[plan.axis ?? 'load'].noun;
  return (
    <section className="panel" aria-labelledby={`${prefix}-points-title`}>
      <div className="panel-head">
        <h3 id={`${prefix}-points-title`}>Points</h3>
        <div className="cdf-toolbar" role="group" aria-label="Points: export">
          <button
            type="button"
            disabled={points.size === 0}
            onClick={() => downloadText(`qoslab-${prefix}-points.csv`, 'text/csv;charset=utf-8', pointsCsv(labels, params.loads, points, AXIS_INFO[plan.axis ?? 'load'].csv))}
          >
            Export all points (CSV)
          </button>
        </div>
      </div>
      <div className="table-scroll">
        <table className="results-table experiment-points" data-testid={`${prefix}-points`}>
          <caption>
            Seeds finished per scheduler and {noun} (of {params.seeds}){plan.video ? `; ${plan.video}` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Scheduler</th>
              {params.loads.map((l) => (
                <th scope="col" key={l}>
                  {l}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((label, s) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {params.loads.map((l, li) => {
                  const done = seedsDone.get(pointKey(s, li)) ?? 0;
                  return (
                    <td key={l} className={done === params.seeds ? 'point-done' : undefined}>
                      <progress max={params.seeds} value={done} aria-label={`${label} at ${noun} ${l}: ${done} of ${params.seeds} seeds`} />{' '}
                      {done}/{params.seeds}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Connections requested / admitted / refused per connection class at the highest load. */
export function AdmissionSection({ prefix, labels, cdfRuns, highest }: { prefix: string; labels: string[]; cdfRuns: ReadonlyMap<number, RunSummary[]>; highest: number }) {
  const { rows, sameForAll } = useMemo(() => admissionRows(labels, cdfRuns), [labels, cdfRuns]);
  const runs = rows[0]?.runs ?? 0;
  return (
    <section className="panel" aria-labelledby={`${prefix}-admission-title`}>
      <div className="panel-head">
        <h3 id={`${prefix}-admission-title`}>Admission of connections</h3>
        <div className="cdf-toolbar" role="group" aria-label="Admission table: export">
          <button type="button" onClick={() => downloadText(`qoslab-${prefix}-admission.csv`, 'text/csv;charset=utf-8', admissionCsv(labels, rows))}>
            Export CSV
          </button>
        </div>
      </div>
      <div className="table-scroll">
        <table className="results-table" data-testid={`${prefix}-admission`}>
          <caption>
            Connections per run at load {highest}
            {sameForAll
              ? `, identical for every scheduler (admission happens before any packet moves)`
              : ', per scheduler'}
            ; over {runs} {runs === 1 ? 'seed' : 'seeds'}: the number when all seeds agree, else mean (least–most)
          </caption>
          <thead>
            <tr>
              <th scope="col">Class</th>
              {sameForAll ? null : <th scope="col">Scheduler</th>}
              <th scope="col">Requested</th>
              <th scope="col">Admitted</th>
              <th scope="col">Refused</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.className}@${r.scheduler ?? 'all'}`}>
                <th scope="row">{r.className}</th>
                {sameForAll ? null : <td>{labels[r.scheduler ?? 0]}</td>}
                <td>{formatCount(r.requested)}</td>
                <td>{formatCount(r.admitted)}</td>
                <td>{formatCount(r.refused)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The improvement of configuration `baseline` over each other one, at the lowest, middle and highest load. */
export function ImprovementSection({ prefix, labels, loads, points, baseline }: { prefix: string; labels: string[]; loads: number[]; points: PointMap; baseline: number }) {
  const rows = useMemo(() => improvementRows(labels.length, loads, points, baseline), [labels.length, loads, points, baseline]);
  const others = labels.flatMap((l, i) => (i === baseline ? [] : [{ label: l, index: i }]));
  const base = labels[baseline] ?? '';
  const shown = [...new Set(rows.map((r) => r.load))];
  return (
    <section className="panel" aria-labelledby={`${prefix}-improvement-title`}>
      <div className="panel-head">
        <h3 id={`${prefix}-improvement-title`}>
          Improvement of {base} over the other {others.length === 1 ? 'configuration' : 'configurations'}
        </h3>
        <div className="cdf-toolbar" role="group" aria-label="Improvement table: export">
          <button type="button" onClick={() => downloadText(`qoslab-${prefix}-improvement.csv`, 'text/csv;charset=utf-8', improvementCsv(labels, rows))}>
            Export CSV
          </button>
        </div>
      </div>
      <p className="help formula" data-testid={`${prefix}-improvement-formula`}>
        Improvement = {IMPROVEMENT_FORMULA.replace(/baseline/g, base)} × 100 %: how much longer the other configuration’s latency
        is, in % of {base}’s (positive: {base} is faster; +190 % means 2.9 times {base}’s latency). A star (★) marks a
        difference that is significant: the two 90% confidence intervals do not overlap.
      </p>
      <div className="table-scroll">
        <table className="results-table" data-testid={`${prefix}-improvement`}>
          <caption>
            ({IMPROVEMENT_FORMULA.replace(/baseline/g, base)}) in %, of the mean and the 99th percentile latency, at loads {shown.join(', ')}
          </caption>
          <thead>
            <tr>
              <th scope="col" rowSpan={2}>
                Class
              </th>
              <th scope="col" rowSpan={2}>
                Load
              </th>
              {others.map((o) => (
                <th scope="colgroup" colSpan={2} key={o.label}>
                  <span className="swatch" style={{ background: colorFor(o.index) }} aria-hidden="true" />
                  vs {o.label}
                </th>
              ))}
            </tr>
            <tr>
              {others.map((o) => (
                <FragmentPair key={o.label} />
              ))}
            </tr>
          </thead>
          <tbody>
            {groupRows(rows, others.length).map((group) => (
              <tr key={`${group.className}@${group.load}`}>
                <th scope="row">{group.className}</th>
                <td>{group.load}</td>
                {group.cells.flatMap((cell, k) => [
                  <Cell key={`${k}m`} other={others[k]?.label ?? ''} metric="mean" value={cell.mean} significant={cell.meanSignificant} />,
                  <Cell key={`${k}p`} other={others[k]?.label ?? ''} metric="p99" value={cell.p99} significant={cell.p99Significant} />,
                ])}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** A cell: the improvement; a significant one is marked (a star drawn by CSS, and said in its title). */
function Cell({ other, metric, value, significant }: { other: string; metric: string; value: number | null; significant: boolean }) {
  return (
    <td
      data-other={other}
      data-metric={metric}
      data-significant={significant ? 'true' : undefined}
      className={significant ? 'significant' : undefined}
      title={significant ? 'Significant: the 90% confidence intervals do not overlap' : undefined}
    >
      {formatImprovement(value)}
    </td>
  );
}

function FragmentPair() {
  return (
    <>
      <th scope="col">mean</th>
      <th scope="col">p99</th>
    </>
  );
}

/** Rows of the table: one per (class, load), with a (mean, p99) cell pair per other configuration. */
function groupRows(rows: readonly ImprovementRow[], others: number) {
  const out: { className: string; load: number; cells: ImprovementRow[] }[] = [];
  for (let i = 0; i < rows.length; i += others) {
    const first = rows[i];
    if (!first) break;
    out.push({ className: first.className, load: first.load, cells: rows.slice(i, i + others) });
  }
  return out;
}
