// The topology (kind and size) and the routing over it.
import { NumberField, SelectField } from '../form/fields';
import type { TopologyConfig } from '../generated';
import { setTopology, setTopologyKind, setTorusDim, setTorusRank, TOPOLOGIES, type TopologyKind } from './edit';
import { topologyText } from './describe';
import { RoutingField } from './RoutingField';
import type { SectionProps } from './sectionProps';

const KINDS = (Object.keys(TOPOLOGIES) as TopologyKind[]).map((k) => ({ value: k, label: TOPOLOGIES[k].label }));
const PATH = 'model.topology';

export function TopologySection({ scenario, onEdit, validate }: SectionProps) {
  const topology = scenario.model.topology;
  return (
    <>
      <div className="grid">
        <SelectField path={`${PATH}.kind`} label="Topology" value={topology.kind} options={KINDS} onChange={(k) => onEdit((s) => setTopologyKind(s, k))} />
        <TopologySize topology={topology} onChange={(t) => onEdit((s) => setTopology(s, t))} onEdit={onEdit} />
      </div>
      <p className="note" data-testid="topology-text">
        {topologyText(scenario.model)}
      </p>
      <RoutingField scenario={scenario} onEdit={onEdit} validate={validate} />
    </>
  );
}

interface SizeProps {
  topology: TopologyConfig;
  onChange: (t: TopologyConfig) => void;
  onEdit: SectionProps['onEdit'];
}

/** The size fields of the topology's kind. */
function TopologySize({ topology: t, onChange, onEdit }: SizeProps) {
  switch (t.kind) {
    case 'link':
      return null;
    case 'single_switch':
      return <NumberField path={`${PATH}.ports`} label="Ports (one end point each)" value={t.ports} min={2} step={1} onChange={(v) => onChange({ ...t, ports: v })} />;
    case 'min':
      return (
        <>
          <NumberField path={`${PATH}.end_points`} label="End points" value={t.end_points} min={2} step={1} onChange={(v) => onChange({ ...t, end_points: v })} />
          <NumberField
            path={`${PATH}.switch_ports`}
            label="Ports per switch"
            value={t.switch_ports}
            min={4}
            step={2}
            hint="Half down, half up; end points must be a power of half of it."
            onChange={(v) => onChange({ ...t, switch_ports: v })}
          />
        </>
      );
    case 'tree':
      return (
        <>
          <NumberField path={`${PATH}.k`} label="Arity k" value={t.k} min={2} step={1} hint="Switches of 2k ports." onChange={(v) => onChange({ ...t, k: v })} />
          <NumberField path={`${PATH}.n`} label="Stages n" value={t.n} min={1} step={1} hint="k^n end points." onChange={(v) => onChange({ ...t, n: v })} />
        </>
      );
    case 'torus':
      return (
        <>
          <SelectField
            path={`${PATH}.dims`}
            label="Dimensions"
            value={String(t.dims.length)}
            options={[
              { value: '1', label: '1 (ring)' },
              { value: '2', label: '2' },
              { value: '3', label: '3' },
            ]}
            onChange={(v) => onEdit((s) => setTorusRank(s, Number(v)))}
          />
          {t.dims.map((d, k) => (
            <NumberField
              key={k}
              path={`${PATH}.dims[${k}]`}
              label={`Ring size, dimension ${k + 1}`}
              value={d}
              min={2}
              step={1}
              onChange={(v) => onEdit((s) => setTorusDim(s, k, v))}
            />
          ))}
          <NumberField
            path={`${PATH}.trunk_ports`}
            label="Trunk ports"
            value={t.trunk_ports}
            min={1}
            step={1}
            hint="Parallel ports to each neighbour, in each direction of each dimension."
            onChange={(v) => onChange({ ...t, trunk_ports: v })}
          />
          <NumberField
            path={`${PATH}.end_points_per_switch`}
            label="End points per switch"
            value={t.end_points_per_switch}
            min={1}
            step={1}
            onChange={(v) => onChange({ ...t, end_points_per_switch: v })}
          />
        </>
      );
  }
}
