// The switch model of every switch and its parameters (a new model: its entry in
// edit.ts's SWITCH_MODELS and its fields here, by kind).
import { NumberField, SelectField } from '../form/fields';
import type { CioqConfig, VcArbitration } from '../generated';
import { setSwitchKind, SWITCH_MODELS, type SwitchKind } from './edit';
import { InfinibandFields } from './InfinibandFields';
import { editNetwork, IB_PORT_BUFFER } from './networkScenario';
import type { SectionProps } from './sectionProps';

const PATH = 'model.switch';

const MODELS = (Object.keys(SWITCH_MODELS) as SwitchKind[]).map((k) => ({ value: k, label: SWITCH_MODELS[k].label }));

const ARBITRATIONS: { value: VcArbitration; label: string }[] = [
  { value: 'priority', label: 'Packet priority, then round robin' },
  { value: 'round_robin', label: 'Round robin (traditional)' },
];

export function SwitchSection({ scenario, onEdit }: SectionProps) {
  const sw = scenario.model.switch;
  // Both VL pipelines have buffers per port shared by the VLs and stage cycles instead of a header time.
  const ib = sw.kind === 'infiniband' || sw.kind === 'omnipath';
  const buffer = sw.kind === 'two_vc' ? 'per port and VC' : ib ? 'per port, shared by its VLs' : 'per port and class';
  const inputBytes = sw.input_buffer_bytes ?? IB_PORT_BUFFER;
  const outputBytes = sw.output_buffer_bytes ?? IB_PORT_BUFFER;
  const set = (patch: Partial<CioqConfig>) => onEdit((s) => editNetwork(s, (net) => ({ ...net, switch: { ...net.switch, ...patch } })));
  return (
    <div className="grid">
      <SelectField path={`${PATH}.kind`} label="Switch model" value={sw.kind} options={MODELS} onChange={(k) => onEdit((s) => setSwitchKind(s, k))} />
      <NumberField
        path={`${PATH}.speedup`}
        label="Crossbar speedup"
        value={sw.speedup ?? 1}
        min={1}
        step={0.1}
        hint="Crossbar rate as a multiple of the link rate."
        onChange={(v) => set({ speedup: v })}
      />
      {sw.kind !== 'infiniband' && sw.kind !== 'omnipath' && (
        <NumberField
          path={`${PATH}.header_crossing_ns`}
          label="Header crossing (ns)"
          value={sw.header_crossing_ns}
          min={0}
          step={1}
          hint="Routing and arbitration time before a packet can cross."
          onChange={(v) => set({ header_crossing_ns: v })}
        />
      )}
      <NumberField
        path={`${PATH}.input_buffer_bytes`}
        label={`Input buffer ${buffer} (B)`}
        value={inputBytes}
        min={64}
        step={64}
        hint={Number.isFinite(inputBytes) ? `${Math.floor(inputBytes / 64)} credits of 64 B` : undefined}
        onChange={(v) => set({ input_buffer_bytes: v })}
      />
      <NumberField
        path={`${PATH}.output_buffer_bytes`}
        label={`Output buffer ${buffer} (B)`}
        value={outputBytes}
        min={64}
        step={64}
        onChange={(v) => set({ output_buffer_bytes: v })}
      />
      {sw.kind === 'infiniband' && <InfinibandFields config={sw} onEdit={onEdit} />}
      {sw.kind === 'omnipath' && (
        <NumberField
          path={`${PATH}.central_buffer_bytes`}
          label="Central crossbar buffer per MPort (B)"
          value={sw.central_buffer_bytes ?? 2 * IB_PORT_BUFFER}
          min={128}
          step={128}
          hint="Half at each of the MPort's two links into the central crossbar, shared by the VLs (stage cycles: the defaults, 1 each; docs/modelling.md)."
          onChange={(v) => onEdit((s) => editNetwork(s, (net) => (net.switch.kind === 'omnipath' ? { ...net, switch: { ...net.switch, central_buffer_bytes: v } } : net)))}
        />
      )}
      {sw.kind === 'two_vc' && (
        <SelectField
          path={`${PATH}.arbitration`}
          label="Crossbar arbitration inside a VC"
          value={sw.arbitration}
          options={ARBITRATIONS}
          onChange={(a) =>
            onEdit((s) => editNetwork(s, (net) => (net.switch.kind === 'two_vc' ? { ...net, switch: { ...net.switch, arbitration: a } } : net)))
          }
        />
      )}
    </div>
  );
}
