// The links (all alike), the flit size of the flit figures, and the network interfaces' buffers.
import { NumberRows, type NumberRow } from '../form/NumberRows';
import type { NetworkLinkConfig } from '../generated';
import { editNetwork } from './networkScenario';
import type { SectionProps } from './sectionProps';

type LinkNumber = 'rate_gbps' | 'latency_ns' | 'credit_delay_ns';

export function LinksSection({ scenario, onEdit }: SectionProps) {
  const { link } = scenario.model;
  const setLink = (patch: Partial<NetworkLinkConfig>) => onEdit((s) => editNetwork(s, (net) => ({ ...net, link: { ...net.link, ...patch } })));
  /** A field of `model.link` (0 when absent), from 0 up. */
  const linkRow = (field: LinkNumber, label: string, step: number, hint?: string): NumberRow => ({
    path: `model.link.${field}`,
    label,
    value: link[field] ?? 0,
    min: 0,
    step,
    hint,
    onChange: (v) => setLink({ [field]: v }),
  });
  return (
    <div className="grid">
      <NumberRows
        rows={[
          linkRow('rate_gbps', 'Link rate (Gb/s)', 0.1, 'After line encoding.'),
          linkRow('latency_ns', 'Link latency (ns)', 1),
          linkRow('credit_delay_ns', 'Credit return delay (ns)', 1),
          {
            path: 'model.flit_bytes',
            label: 'Flit size (B)',
            value: scenario.model.flit_bytes ?? Number.NaN,
            min: 1,
            step: 1,
            hint: 'Blank: none. With it, results add throughput in flits per cycle per end point (a cycle = one flit time on a link).',
            onChange: (v) =>
              onEdit((s) =>
                editNetwork(s, (net) => {
                  const { flit_bytes: _, ...rest } = net;
                  return Number.isNaN(v) ? rest : { ...rest, flit_bytes: v };
                }),
              ),
          },
          {
            path: 'model.interface.buffer_bytes',
            label: 'Interface buffer per class (B)',
            value: scenario.model.interface.buffer_bytes,
            min: 64,
            step: 64,
            hint: "Injection buffer, and the reception buffer the last switch's credits refer to.",
            onChange: (v) => onEdit((s) => editNetwork(s, (net) => ({ ...net, interface: { buffer_bytes: v } }))),
          },
        ]}
      />
    </div>
  );
}
