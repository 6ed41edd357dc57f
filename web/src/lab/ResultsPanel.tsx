// The results of the last finished run: latency CDFs, the numbers, and downloads. They
// always belong to the scenario that was run; after an edit they are marked stale.
import { memo, useMemo } from 'react';
import { CdfPanel, classesToCdfSeries } from '../charts';
import type { RunRecord } from '../state/useRunner';
import { downloadText } from '../shared/download';
import { ResultsTable } from './ResultsTable';
import { NpResultsTable } from './NpResultsTable';

interface Props {
  record: RunRecord | null;
  stale: boolean;
}

export const ResultsPanel = memo(function ResultsPanel({ record, stale }: Props) {
  const series = useMemo(() => (record ? classesToCdfSeries(record.results.classes) : []), [record]);
  if (!record) {
    return <p className="placeholder">No results yet: press Run to simulate the scenario.</p>;
  }
  return (
    <div className={`results-body${stale ? ' stale' : ''}`} data-testid="results">
      {stale ? (
        <p className="stale-note" data-testid="stale-note">
          Results are for the previous settings — run again.
        </p>
      ) : null}
      <p className="results-of">
        Scenario “{record.results.scenario}”, seed {record.results.seed}, {record.results.engine}
      </p>
      {/* Log latency axis by default: class latencies span several decades. */}
      <CdfPanel series={series} title="Latency CDF per class" filename="qoslab-latency-cdf" defaultLogX />
      <ResultsTable results={record.results} />
      {record.results.network_processor ? <NpResultsTable np={record.results.network_processor} /> : null}
      <div className="row">
        <button type="button" onClick={() => downloadText('qoslab-results.json', record.resultsJson)}>
          Download results (JSON)
        </button>
      </div>
    </div>
  );
});
