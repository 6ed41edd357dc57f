// A network scenario opened in the link lab: the link lab edits one output port, so a
// network is shown read-only (topology, switch, classes, schedulers) with a pointer to the
// view that runs networks.
import { memo } from 'react';
import type { NetworkConfig, Scenario } from '../generated';
import { schedulerName } from '../shared/schedulers';

/** The R2 study's address (registered in views.tsx). */
const R2_HASH = 'view=r2';

type NetworkScenario = Scenario & { model: { kind: 'network' } & NetworkConfig };

/** A short description of a network's topology, e.g. "folded perfect-shuffle MIN, 64 end points, 8-port switches". */
export function topologyText(net: NetworkConfig): string {
  const t = net.topology;
  switch (t.kind) {
    case 'link':
      return 'two end points joined by one link';
    case 'single_switch':
      return `one switch with ${t.ports} ports, one end point each`;
    case 'min':
      return `folded perfect-shuffle MIN, ${t.end_points} end points, ${t.switch_ports}-port switches`;
    case 'tree':
      return `${t.k}-ary ${t.n}-tree, ${t.k ** t.n} end points, ${2 * t.k}-port switches`;
    case 'torus':
      return `${t.dims.join('x')} torus, trunks of ${t.trunk_ports} ports, ${t.end_points_per_switch} end points per switch`;
  }
}

/** A short description of a class's generator, e.g. "CBR connections, 64 kb/s, 160 B". */
export function generatorText(c: NetworkConfig['classes'][number]): string {
  const g = c.traffic.generator;
  switch (g.kind) {
    case 'cbr':
      return `CBR connections, ${g.rate_bps / 1000} kb/s, ${g.packet_bytes} B`;
    case 'video':
      return `video, ${g.rate_bps / 1e6} Mb/s, GOP ${g.gop}`;
    case 'video_trace':
      return `video trace ${g.trace}`;
    case 'bursts':
      return g.packets === 1 ? 'single packets' : `bursts of ${g.packets} packets`;
  }
}

/** The offered load of a network class per end point (fraction of the link; null when unreadable). */
export function classLoad(c: NetworkConfig['classes'][number]): number | null {
  return Number.isFinite(c.traffic.load) ? c.traffic.load : null;
}

export const NetworkSummary = memo(function NetworkSummary({ scenario }: { scenario: NetworkScenario }) {
  const net = scenario.model;
  const sw = net.switch;
  return (
    <div className="editor-body network-summary" data-testid="network-summary">
      <div className="banner info" role="note">
        <p>
          <strong>{scenario.name}</strong> is a network scenario. The link lab edits a single output port, so the network is
          shown here read-only; you can still run it with Run. To compare schedulers on it over offered load, open the{' '}
          <a href={`#${R2_HASH}`}>Multimedia network (R2) view</a>.
        </p>
      </div>
      {scenario.description ? <p className="help">{scenario.description}</p> : null}
      <dl className="summary-list">
        <dt>Topology</dt>
        <dd>{topologyText(net)}</dd>
        <dt>Switch</dt>
        <dd>
          CIOQ, crossbar speedup {sw.speedup}, header crossing {sw.header_crossing_ns} ns, buffers{' '}
          {sw.input_buffer_bytes / 1024} KiB in / {sw.output_buffer_bytes / 1024} KiB out per class
        </dd>
        <dt>Links</dt>
        <dd>{net.link.rate_gbps} Gb/s</dd>
        <dt>Interface buffers</dt>
        <dd>{net.interface.buffer_bytes / 1024} KiB per class</dd>
        <dt>Schedulers</dt>
        <dd>
          interfaces: {schedulerName(net.interface_scheduler.kind)}; switch outputs: {schedulerName(net.switch_scheduler.kind)}
        </dd>
        <dt>Simulated time</dt>
        <dd>
          {scenario.duration_us} µs (warm-up {scenario.warmup_us} µs), seed {scenario.seed}
        </dd>
      </dl>
      <div className="table-scroll">
        <table className="results-table network-classes">
          <caption>Classes</caption>
          <thead>
            <tr>
              <th scope="col">Class</th>
              <th scope="col">Kind</th>
              <th scope="col">Traffic</th>
              <th scope="col">Load per end point</th>
            </tr>
          </thead>
          <tbody>
            {net.classes.map((c, i) => {
              const load = classLoad(c);
              return (
                <tr key={i}>
                  <th scope="row">{c.name}</th>
                  <td>{c.best_effort ? 'best effort' : 'QoS'}</td>
                  <td>{generatorText(c)}</td>
                  <td>{load === null ? '—' : `${(load * 100).toFixed(1)} %`}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
});
