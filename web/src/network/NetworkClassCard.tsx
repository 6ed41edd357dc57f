// One class of a network: name, kind (QoS or best effort), load, its SL's MTU, generator,
// destinations.
import { memo } from 'react';
import { colorFor } from '../charts/palette';
import { FieldMessages, NumberField, SelectField, TextField } from '../form/fields';
import { useFieldErrors } from '../form/fieldErrors';
import type { Edit } from '../form/types';
import type { NetworkClassConfig } from '../generated';
import { fieldId } from '../shared/errors';
import { editClass, removeNetworkClass } from './edit';
import { DestinationFields } from './DestinationFields';
import { GeneratorFields } from './GeneratorFields';
import { generatorText } from './describe';

interface Props {
  index: number;
  cls: NetworkClassConfig;
  canRemove: boolean;
  onEdit: Edit;
}

const KINDS = [
  { value: 'qos', label: 'QoS' },
  { value: 'best_effort', label: 'Best effort' },
] as const;

export const NetworkClassCard = memo(function NetworkClassCard({ index: i, cls, canRemove, onEdit }: Props) {
  const at = `model.classes[${i}]`;
  const messages = useFieldErrors(at);
  const legendId = `${fieldId(at)}-legend`;
  const set = (f: (c: NetworkClassConfig) => NetworkClassConfig) => onEdit((s) => editClass(s, i, f));
  return (
    <fieldset className={`card class-card${messages.length > 0 ? ' has-error' : ''}`} id={fieldId(at)} tabIndex={-1} aria-labelledby={legendId}>
      <legend id={legendId}>
        <span className="swatch" style={{ background: colorFor(i) }} aria-hidden="true" />
        Class {i} (SL {i})<span className="visually-hidden">{cls.name ? ` ${cls.name}` : ''}</span>
      </legend>
      <div className="class-head">
        <span className="class-share">{generatorText(cls)}</span>
        <button
          type="button"
          className="small danger"
          disabled={!canRemove}
          aria-label={`Remove class ${i} ${cls.name}`}
          title={canRemove ? 'Remove this class (and its place in the schedulers)' : 'A scenario needs at least one class'}
          onClick={() => onEdit((s) => removeNetworkClass(s, i))}
        >
          Remove
        </button>
      </div>
      <FieldMessages path={at} messages={messages} />
      <div className="grid">
        <TextField path={`${at}.name`} label="Name" value={cls.name} maxLength={40} onChange={(v) => set((c) => ({ ...c, name: v }))} />
        <SelectField
          path={`${at}.best_effort`}
          label="Kind"
          value={cls.best_effort ? 'best_effort' : 'qos'}
          options={KINDS}
          hint="In a sweep, best-effort loads follow the offered load; QoS loads stay."
          onChange={(v) => set((c) => ({ ...c, best_effort: v === 'best_effort' }))}
        />
        <NumberField
          path={`${at}.traffic.load`}
          label="Load per end point"
          value={cls.traffic.load}
          min={0}
          step={0.01}
          hint="Fraction of the link rate."
          onChange={(v) => set((c) => ({ ...c, traffic: { ...c.traffic, load: v } }))}
        />
        <NumberField
          path={`${at}.mtu_bytes`}
          label="SL MTU (B)"
          value={cls.mtu_bytes ?? Number.NaN}
          min={64}
          step={64}
          hint="Blank: each generated message is one packet. Otherwise messages are split into packets of at most this size; results add message latency (to the last packet)."
          onChange={(v) =>
            set((c) => {
              const { mtu_bytes: _, ...rest } = c;
              return Number.isNaN(v) ? rest : { ...rest, mtu_bytes: v };
            })
          }
        />
        <GeneratorFields index={i} cls={cls} onEdit={onEdit} />
        <DestinationFields index={i} cls={cls} onEdit={onEdit} />
      </div>
    </fieldset>
  );
});
