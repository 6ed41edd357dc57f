// A network-processor run's own figures in the link lab (under the per-class table, whose
// classes are its stream groups): per group the packets generated, sent, dropped late, lost
// to a full queue, still queued and DWCS's window violations; for the node the scheduling
// cost per packet against the link's budget and the rate it sustains.
import type { NpResults } from '../generated';
import { formatCount } from '../shared/format';

const fixed = (v: number, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : '—');

export function NpResultsTable({ np }: { np: NpResults }) {
  const c = np.cost;
  const over = c.cycles_per_packet > c.budget_cycles;
  return (
    <div className="results-numbers" data-testid="np-results">
      <div className="table-scroll">
        <table className="results-table" data-testid="np-groups-table">
          <caption>
            Network-processor node ({np.scheduler}, {formatCount(np.streams)} streams, U = {fixed(np.utilisation, 3)}): packets per stream group
          </caption>
          <thead>
            <tr>
              <th scope="col">Group</th>
              <th scope="col">Streams</th>
              <th scope="col">Generated</th>
              <th scope="col">Sent</th>
              <th scope="col">Dropped late</th>
              <th scope="col">Lost (queue full)</th>
              <th scope="col">Sent late</th>
              <th scope="col">Window violations</th>
            </tr>
          </thead>
          <tbody>
            {np.categories.map((g) => (
              <tr key={g.name}>
                <th scope="row">{g.name}</th>
                <td>{formatCount(g.streams)}</td>
                <td>{formatCount(g.generated)}</td>
                <td>{formatCount(g.sent)}</td>
                <td>{formatCount(g.dropped_late)}</td>
                <td>{formatCount(g.lost_full)}</td>
                <td>{formatCount(g.late_sent)}</td>
                <td>{formatCount(g.violations)}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">All (node)</th>
              <td>{formatCount(np.streams)}</td>
              <td>{formatCount(np.generated)}</td>
              <td>{formatCount(np.sent)}</td>
              <td>{formatCount(np.dropped_late)}</td>
              <td>{formatCount(np.lost_full)}</td>
              <td>{formatCount(np.late_sent)}</td>
              <td>{formatCount(np.violations)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <p className="results-of" data-testid="np-cost">
        Scheduling cost: {fixed(c.accesses_per_packet)} memory accesses and {fixed(c.cycles_per_packet, 0)} cycles per scheduled packet at {c.clock_mhz} MHz
        (the link leaves {fixed(c.budget_cycles, 0)} cycles per packet: {over ? 'over the budget' : 'within the budget'}); it sustains{' '}
        {formatCount(Math.round(c.sustained_packets_per_s))} packets/s, about {formatCount(Math.round(c.sustained_streams))} streams of this rate.{' '}
        {np.queued > 0 ? `${formatCount(np.queued)} packets still queued at the end; ` : ''}
        {fixed(np.active_streams)} streams had a packet queued on average.
      </p>
    </div>
  );
}
