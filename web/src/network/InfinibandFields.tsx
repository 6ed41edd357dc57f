// The InfiniBand-like switch's own fields: the latency of each pipeline stage, in
// cycles of one 64-byte flit on a link (docs/modelling.md, "InfiniBand-like switch").
import { NumberField } from '../form/fields';
import type { InfinibandConfig, StageCycles } from '../generated';
import { editNetwork } from './networkScenario';
import type { SectionProps } from './sectionProps';

const STAGES: { key: keyof StageCycles; label: string; hint: string }[] = [
  { key: 'input_buffer', label: 'Input buffering', hint: 'Writing the header into the input buffer.' },
  { key: 'routing', label: 'Routing unit', hint: 'Destination lookup and SL2VL for the output port.' },
  { key: 'vl_allocation', label: 'VL allocation', hint: 'Per input, round robin among the VLs whose head is routed.' },
  { key: 'switch_allocation', label: 'Switch allocation', hint: 'Per output, round robin among the inputs that won VL allocation.' },
  { key: 'crossbar', label: 'Crossbar', hint: 'The header crossing the crossbar.' },
  { key: 'output_buffer', label: 'Output buffering', hint: 'Writing the header into the output buffer, where the output scheduler sees it.' },
];

export function InfinibandFields({ config, onEdit }: { config: InfinibandConfig; onEdit: SectionProps['onEdit'] }) {
  const setCycles = (key: keyof StageCycles, v: number) =>
    onEdit((s) =>
      editNetwork(s, (net) =>
        net.switch.kind === 'infiniband' ? { ...net, switch: { ...net.switch, cycles: { ...net.switch.cycles, [key]: v } } } : net,
      ),
    );
  return (
    <>
      {STAGES.map(({ key, label, hint }) => (
        <NumberField
          key={key}
          path={`model.switch.cycles.${key}`}
          label={`${label} (cycles)`}
          value={config.cycles?.[key] ?? 1}
          min={0}
          step={1}
          hint={hint}
          onChange={(v) => setCycles(key, v)}
        />
      ))}
    </>
  );
}
