// The links (all alike), the flit size of the flit figures, and the network interfaces' buffers.
import { NumberField } from '../form/fields';
import type { NetworkLinkConfig } from '../generated';
import { editNetwork } from './networkScenario';
import type { SectionProps } from './sectionProps';

export function LinksSection({ scenario, onEdit }: SectionProps) {
  const { link } = scenario.model;
  const setLink = (patch: Partial<NetworkLinkConfig>) => onEdit((s) => editNetwork(s, (net) => ({ ...net, link: { ...net.link, ...patch } })));
  return (
    <div className="grid">
      <NumberField
        path="model.link.rate_gbps"
        label="Link rate (Gb/s)"
        value={link.rate_gbps}
        min={0}
        step={0.1}
        hint="After line encoding."
        onChange={(v) => setLink({ rate_gbps: v })}
      />
      <NumberField
        path="model.link.latency_ns"
        label="Link latency (ns)"
        value={link.latency_ns ?? 0}
        min={0}
        step={1}
        onChange={(v) => setLink({ latency_ns: v })}
      />
      <NumberField
        path="model.link.credit_delay_ns"
        label="Credit return delay (ns)"
        value={link.credit_delay_ns ?? 0}
        min={0}
        step={1}
        onChange={(v) => setLink({ credit_delay_ns: v })}
      />
      <NumberField
        path="model.flit_bytes"
        label="Flit size (B)"
        value={scenario.model.flit_bytes ?? Number.NaN}
        min={1}
        step={1}
        hint="Blank: none. With it, results add throughput in flits per cycle per end point (a cycle = one flit time on a link)."
        onChange={(v) =>
          onEdit((s) =>
            editNetwork(s, (net) => {
              const { flit_bytes: _, ...rest } = net;
              return Number.isNaN(v) ? rest : { ...rest, flit_bytes: v };
            }),
          )
        }
      />
      <NumberField
        path="model.interface.buffer_bytes"
        label="Interface buffer per class (B)"
        value={scenario.model.interface.buffer_bytes}
        min={64}
        step={64}
        hint="Injection buffer, and the reception buffer the last switch's credits refer to."
        onChange={(v) => onEdit((s) => editNetwork(s, (net) => ({ ...net, interface: { buffer_bytes: v } })))}
      />
    </div>
  );
}
