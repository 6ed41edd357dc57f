// The numbers of a run, per class, in one latency unit, and the packet totals.
import { colorFor } from '../charts/palette';
import type { RunResults } from '../generated';
import { formatCount, formatLatency, formatPercent, resultsLatencyUnit } from '../shared/format';

export function ResultsTable({ results }: { results: RunResults }) {
  const unit = resultsLatencyUnit(results);
  // Networks add, when asked for, message latency (classes with an MTU) and flits.
  const messages = results.classes.some((c) => c.messages);
  const flits = results.classes.some((c) => c.flits);
  return (
    <div className="results-numbers">
      <div className="table-scroll">
        <table className="results-table" data-testid="results-table">
          <caption>
            Per class (offered load and throughput as % of the {results.link_rate_gbps} Gb/s link; latency in {unit.unit})
          </caption>
          <thead>
            <tr>
              <th scope="col">Class</th>
              <th scope="col">Offered</th>
              <th scope="col">Throughput</th>
              <th scope="col">Packets</th>
              <th scope="col">Mean ({unit.unit})</th>
              <th scope="col">p50 ({unit.unit})</th>
              <th scope="col">p99 ({unit.unit})</th>
              <th scope="col">Max ({unit.unit})</th>
              {messages ? <th scope="col">Message mean ({unit.unit})</th> : null}
              {messages ? <th scope="col">Message p99 ({unit.unit})</th> : null}
              {flits ? <th scope="col">Throughput (flits/cycle/node)</th> : null}
            </tr>
          </thead>
          <tbody>
            {results.classes.map((c, i) => (
              <tr key={i}>
                <th scope="row">
                  <span className="swatch" style={{ background: colorFor(i) }} aria-hidden="true" />
                  {c.name}
                </th>
                <td>{formatPercent(c.offered)}</td>
                <td>{formatPercent(c.throughput)}</td>
                <td>{formatCount(c.packets)}</td>
                <td>{formatLatency(c.latency_ns.mean, unit)}</td>
                <td>{formatLatency(c.latency_ns.p50, unit)}</td>
                <td>{formatLatency(c.latency_ns.p99, unit)}</td>
                <td>{formatLatency(c.latency_ns.max, unit)}</td>
                {messages ? <td>{c.messages ? formatLatency(c.messages.latency_ns.mean, unit) : '–'}</td> : null}
                {messages ? <td>{c.messages ? formatLatency(c.messages.latency_ns.p99, unit) : '–'}</td> : null}
                {flits ? <td>{c.flits ? c.flits.throughput.toFixed(4) : '–'}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="totals" data-testid="results-totals">
        <div>
          <dt>Generated</dt>
          <dd>{formatCount(results.generated)}</dd>
        </div>
        <div>
          <dt>Delivered</dt>
          <dd>{formatCount(results.delivered)}</dd>
        </div>
        <div>
          <dt>In flight at the end</dt>
          <dd>{formatCount(results.in_flight)}</dd>
        </div>
        <div>
          <dt>Events</dt>
          <dd>{formatCount(results.events)}</dd>
        </div>
      </dl>
      <p className="note">
        Packets, offered, throughput and latency count the measurement window (after {formatCount(results.warmup_ns / 1000)} µs of
        warm-up); totals count the whole run of {formatCount(results.duration_ns / 1000)} µs. Latency is from generation
        to full delivery downstream{messages ? '; message latency (classes with an SL MTU) to the arrival of the message’s last packet' : ''}
        {flits ? '; a cycle is one flit time on a link' : ''}.
      </p>
    </div>
  );
}
