// The comparison: pinned runs overlaid on one latency CDF (colour = class, dash = run),
// grouped throughput bars, and the numbers (run × class). Runs can be renamed and removed.
import { memo, useMemo, useRef } from 'react';
import { CdfPanel } from '../charts/CdfPanel';
import { ExportButtons } from '../charts/ExportButtons';
import { GroupedBarChart } from '../charts/GroupedBarChart';
import { colorFor } from '../charts/palette';
import { chooseLatencyUnit, formatLatency, formatPercent } from '../shared/format';
import { classNames, compareCdfSeries, compareCsv, compareRows, dashFor, throughputGroups, type ComparedRun } from './compareData';
import type { Comparison } from './useComparison';

interface Props {
  comparison: Comparison;
  /** Pins the last run (null when there is no run to pin). */
  onAddCurrent: (() => void) | null;
  /** Runs every preset of the current preset's group (null when not in a group). */
  onCompareGroup: (() => void) | null;
  /** Name of the group ("R1"). */
  group: string | null;
  /** True while the lab runs something else (the worker is busy). */
  busy: boolean;
}

function RunLegend({ runs, names }: { runs: readonly ComparedRun[]; names: readonly string[] }) {
  return (
    <div className="compare-legend" data-testid="compare-legend">
      <div>
        <span className="legend-title">Runs (line style):</span>
        <ul aria-label="Runs">
          {runs.map((r, k) => (
            <li key={r.id} data-testid="compare-legend-run">
              <svg width={34} height={10} aria-hidden="true">
                <line x1={1} x2={33} y1={5} y2={5} stroke="#333333" strokeWidth={2} strokeDasharray={dashFor(k)} />
              </svg>
              {r.label}
            </li>
          ))}
        </ul>
      </div>
      <div>
        <span className="legend-title">Classes (colour):</span>
        <ul aria-label="Classes">
          {names.map((n, i) => (
            <li key={i}>
              <span className="swatch" style={{ background: colorFor(i) }} aria-hidden="true" />
              {n}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function ThroughputPanel({ runs }: { runs: readonly ComparedRun[] }) {
  const svgRef = useRef<SVGSVGElement>(null);
  const groups = useMemo(
    () => throughputGroups(runs).map((g) => ({ name: g.name, colorIndex: g.classIndex, values: g.bars.map((b) => b.value) })),
    [runs],
  );
  const file = 'qoslab-compare-throughput';
  return (
    <section className="cdf-panel" aria-label="Throughput per class">
      <div className="cdf-toolbar" role="group" aria-label="Throughput chart options">
        <ExportButtons svgRef={svgRef} filename={file} csv={() => compareCsv(runs)} />
      </div>
      <GroupedBarChart
        groups={groups}
        seriesLabels={runs.map((r) => r.label)}
        yLabel="Throughput (fraction of link)"
        title="Throughput per class and run"
        svgRef={svgRef}
      />
    </section>
  );
}

function CompareTable({ runs }: { runs: readonly ComparedRun[] }) {
  const rows = compareRows(runs);
  const unit = chooseLatencyUnit(rows.flatMap((r) => [r.mean, r.p99, r.max]));
  return (
    <div className="table-scroll">
      <table className="results-table compare-table" data-testid="compare-table">
        <caption>
          Per run and class (throughput as % of the link; latency in {unit.unit})
        </caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Class</th>
            <th scope="col">Throughput</th>
            <th scope="col">Mean ({unit.unit})</th>
            <th scope="col">p99 ({unit.unit})</th>
            <th scope="col">Max ({unit.unit})</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.run}-${r.classIndex}`}>
              <th scope="row">{r.runLabel}</th>
              <td>
                <span className="swatch" style={{ background: colorFor(r.classIndex) }} aria-hidden="true" />
                {r.className}
              </td>
              <td>{formatPercent(r.throughput)}</td>
              <td>{formatLatency(r.mean, unit)}</td>
              <td>{formatLatency(r.p99, unit)}</td>
              <td>{formatLatency(r.max, unit)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function GroupStatus({ comparison }: { comparison: Comparison }) {
  const g = comparison.group;
  switch (g.phase) {
    case 'idle':
      return null;
    case 'running':
      return (
        <div className="run-progress" data-testid="compare-progress">
          <progress
            max={1}
            value={g.total > 0 ? (g.index + g.fraction) / g.total : 0}
            aria-label="Comparison progress"
          />
          <span role="status">
            {g.total > 0 ? `Run ${g.index + 1} of ${g.total}: ${g.title}` : g.title}
          </span>
          <button type="button" onClick={comparison.cancelGroup}>
            Cancel comparison
          </button>
        </div>
      );
    case 'done':
      return (
        <p role="status" className="note" data-testid="compare-status">
          Compared {g.total} runs.
        </p>
      );
    case 'cancelled':
      return (
        <p role="status" className="note" data-testid="compare-status">
          Cancelled after {g.done} of {g.total} runs.
        </p>
      );
    case 'failed':
      return (
        <p role="status" className="run-status failed" data-testid="compare-status">
          {g.message}
        </p>
      );
  }
}

export const ComparePanel = memo(function ComparePanel({ comparison, onAddCurrent, onCompareGroup, group, busy }: Props) {
  const { runs } = comparison;
  const series = useMemo(() => compareCdfSeries(runs), [runs]);
  const names = useMemo(() => classNames(runs), [runs]);
  const running = comparison.group.phase === 'running';
  return (
    <div className="compare-body">
      <div className="row">
        <button type="button" disabled={!onAddCurrent || running} onClick={() => onAddCurrent?.()}>
          Add to comparison
        </button>
        {group !== null ? (
          <button type="button" className="primary" disabled={!onCompareGroup || running || busy} onClick={() => onCompareGroup?.()}>
            Compare the {group} schedulers
          </button>
        ) : null}
        <button type="button" disabled={runs.length === 0 || running} onClick={comparison.clear}>
          Clear comparison
        </button>
      </div>
      <GroupStatus comparison={comparison} />
      {runs.length === 0 ? (
        <p className="placeholder">
          No runs to compare yet: run a scenario and press “Add to comparison”
          {group !== null ? `, or compare the ${group} schedulers` : ''}.
        </p>
      ) : (
        <>
          <ul className="compare-runs" aria-label="Compared runs">
            {runs.map((r, k) => (
              <li key={r.id}>
                <svg width={34} height={10} aria-hidden="true">
                  <line x1={1} x2={33} y1={5} y2={5} stroke="#333333" strokeWidth={2} strokeDasharray={dashFor(k)} />
                </svg>
                <label className="visually-hidden" htmlFor={`compare-label-${r.id}`}>
                  Label of run {k + 1}
                </label>
                <input
                  id={`compare-label-${r.id}`}
                  type="text"
                  value={r.label}
                  maxLength={80}
                  onChange={(e) => comparison.rename(r.id, e.target.value)}
                />
                <span className="note">
                  {r.results.scenario}, seed {r.results.seed}
                </span>
                <button type="button" className="small danger" aria-label={`Remove run ${r.label}`} onClick={() => comparison.remove(r.id)}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
          <RunLegend runs={runs} names={names} />
          <CdfPanel series={series} title="Latency CDF per run and class" filename="qoslab-compare-cdf" defaultLogX height={400} />
          <ThroughputPanel runs={runs} />
          <CompareTable runs={runs} />
        </>
      )}
    </div>
  );
});
