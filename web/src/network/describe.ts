// Networks in words: the topology, a class's generator and its load, as the editor's
// notes and the class cards show them.
import type { NetworkClassConfig, NetworkConfig } from '../generated';

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
    case 'torus': {
      const switches = t.dims.reduce((a, d) => a * d, 1);
      const trunk = t.trunk_ports === 1 ? '1 port' : `${t.trunk_ports} ports`;
      return `${t.dims.join('x')} torus, trunks of ${trunk}, ${t.end_points_per_switch} end points per switch: ${switches} switches, ${switches * t.end_points_per_switch} end points`;
    }
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
      return 'video trace (uploaded frame sizes)';
    case 'bursts':
      return g.packets === 1 ? 'single packets' : `bursts of ${g.packets} packets`;
  }
}

/** The offered load of a network class per end point (fraction of the link; null when unreadable). */
export function classLoad(c: NetworkConfig['classes'][number]): number | null {
  return Number.isFinite(c.traffic.load) ? c.traffic.load : null;
}

/** Largest packet a class sends, in bytes. */
export function maxPacketBytes(c: NetworkClassConfig): number {
  const g = c.traffic.generator;
  switch (g.kind) {
    case 'bursts':
      return g.size.kind === 'fixed' ? g.size.bytes : g.size.max_bytes;
    case 'cbr':
      return g.packet_bytes;
    case 'video':
    case 'video_trace':
      return g.mtu_bytes;
  }
}
