// How a network class generates packets: the generator kind and its parameters.
import { Fragment } from 'react';
import { NumberField, SelectField, TextField } from '../form/fields';
import type { Edit } from '../form/types';
import type { GeneratorConfig, NetworkClassConfig, SizeConfig } from '../generated';
import { editClass, GENERATORS, setGenerator, sizeOfKind, type GeneratorKind, type SizeKind } from './edit';

interface Props {
  index: number;
  cls: NetworkClassConfig;
  onEdit: Edit;
}

const SIZES: readonly { value: SizeKind; label: string }[] = [
  { value: 'fixed', label: 'Fixed' },
  { value: 'uniform', label: 'Uniform' },
  { value: 'pareto', label: 'Bounded Pareto' },
];

/** The generator kinds offered: the switchable ones, and an uploaded trace while the class has one. */
function kindOptions(current: GeneratorKind): { value: GeneratorKind; label: string }[] {
  const list: { value: GeneratorKind; label: string }[] = GENERATORS.map((g) => ({ value: g.kind, label: g.label }));
  return current === 'video_trace' ? [...list, { value: 'video_trace', label: 'Video trace' }] : list;
}

export function GeneratorFields({ index: i, cls, onEdit }: Props) {
  const g = cls.traffic.generator;
  const at = `model.classes[${i}].traffic.generator`;
  const setGen = (f: (g: GeneratorConfig) => GeneratorConfig) =>
    onEdit((s) => editClass(s, i, (c) => ({ ...c, traffic: { ...c.traffic, generator: f(c.traffic.generator) } })));
  return (
    <>
      <SelectField path={at} label="Generator" value={g.kind} options={kindOptions(g.kind)} onChange={(k) => onEdit((s) => setGenerator(s, i, k))} />
      <GeneratorParams at={at} g={g} setGen={setGen} />
    </>
  );
}

interface ParamsProps {
  at: string;
  g: GeneratorConfig;
  setGen: (f: (g: GeneratorConfig) => GeneratorConfig) => void;
}

/** A number field of the generator, set only while the generator is still of the kind it was drawn for. */
function GenNumber<K extends GeneratorKind>(props: {
  at: string;
  kind: K;
  field: string;
  label: string;
  value: number;
  hint?: string;
  step?: number;
  setGen: ParamsProps['setGen'];
}) {
  const { at, kind, field, label, value, hint, step, setGen } = props;
  return (
    <NumberField
      path={`${at}.${field}`}
      label={label}
      value={value}
      min={0}
      step={step ?? 1}
      hint={hint}
      onChange={(v) => setGen((x) => (x.kind === kind ? { ...x, [field]: v } : x))}
    />
  );
}

function GeneratorParams({ at, g, setGen }: ParamsProps) {
  switch (g.kind) {
    case 'bursts':
      return (
        <>
          <GenNumber at={at} kind="bursts" field="packets" label="Packets per burst" value={g.packets} hint="1 = Poisson packets." setGen={setGen} />
          <SizeFields at={`${at}.size`} size={g.size} onChange={(size) => setGen((x) => (x.kind === 'bursts' ? { ...x, size } : x))} />
        </>
      );
    case 'cbr':
      return (
        <>
          <GenNumber at={at} kind="cbr" field="rate_bps" label="Rate per connection (b/s)" value={g.rate_bps} setGen={setGen} />
          <GenNumber at={at} kind="cbr" field="packet_bytes" label="Packet size (bytes)" value={g.packet_bytes} setGen={setGen} />
        </>
      );
    case 'video':
      return (
        <>
          <GenNumber at={at} kind="video" field="rate_bps" label="Mean rate per stream (b/s)" value={g.rate_bps} setGen={setGen} />
          <GenNumber at={at} kind="video" field="frame_interval_us" label="Frame interval (µs)" value={g.frame_interval_us} setGen={setGen} />
          <TextField path={`${at}.gop`} label="GOP pattern" value={g.gop} maxLength={64} onChange={(v) => setGen((x) => (x.kind === 'video' ? { ...x, gop: v } : x))} />
          {(['i_ratio', 'p_ratio', 'b_ratio'] as const).map((f) => (
            <Fragment key={f}>
              <GenNumber at={at} kind="video" field={f} label={`${f[0]?.toUpperCase()}-frame size ratio`} value={g[f]} step={0.1} setGen={setGen} />
            </Fragment>
          ))}
          <GenNumber at={at} kind="video" field="variation" label="Frame size variation" value={g.variation} step={0.05} hint="Coefficient of variation." setGen={setGen} />
          <GenNumber at={at} kind="video" field="mtu_bytes" label="MTU (bytes)" value={g.mtu_bytes} setGen={setGen} />
        </>
      );
    case 'video_trace':
      return (
        <>
          <GenNumber at={at} kind="video_trace" field="frame_interval_us" label="Frame interval (µs)" value={g.frame_interval_us} setGen={setGen} />
          <GenNumber at={at} kind="video_trace" field="mtu_bytes" label="MTU (bytes)" value={g.mtu_bytes} setGen={setGen} />
        </>
      );
  }
}

function SizeFields({ at, size, onChange }: { at: string; size: SizeConfig; onChange: (s: SizeConfig) => void }) {
  return (
    <>
      <SelectField path={at} label="Packet size" value={size.kind} options={SIZES} onChange={(k) => onChange(sizeOfKind(size, k))} />
      {size.kind === 'fixed' ? (
        <NumberField path={`${at}.bytes`} label="Size (bytes)" value={size.bytes} min={1} step={1} onChange={(v) => onChange({ ...size, bytes: v })} />
      ) : (
        <>
          <NumberField path={`${at}.min_bytes`} label="Min size (bytes)" value={size.min_bytes} min={1} step={1} onChange={(v) => onChange({ ...size, min_bytes: v })} />
          <NumberField path={`${at}.max_bytes`} label="Max size (bytes)" value={size.max_bytes} min={1} step={1} onChange={(v) => onChange({ ...size, max_bytes: v })} />
        </>
      )}
      {size.kind === 'pareto' ? (
        <NumberField path={`${at}.shape`} label="Shape (tail index)" value={size.shape} min={0} step={0.1} onChange={(v) => onChange({ ...size, shape: v })} />
      ) : null}
    </>
  );
}
