// The output schedulers: one for every network interface, one for every switch output
// port. The kind converts keeping the class shares; per-class numbers are edited here;
// a table's entries come from the conversion (or a scenario file) and are summarised.
import { FieldMessages, NumberField, SelectField } from '../form/fields';
import { useFieldErrors } from '../form/fieldErrors';
import type { Edit } from '../form/types';
import type { NetworkClassConfig, SchedulerConfig } from '../generated';
import { fieldId } from '../shared/errors';
import { perClassField, SCHEDULER_KINDS, schedulerShares, type SchedulerKind } from '../shared/schedulers';
import { portClass, setNetworkPerClass, setNetworkSchedulerKind, type SchedulerPlace } from './edit';
import type { SectionProps } from './sectionProps';

const KINDS = SCHEDULER_KINDS.map((k) => ({ value: k.kind, label: k.label }));

const PER_CLASS_LABEL: Record<NonNullable<ReturnType<typeof perClassField>>, string> = {
  quanta_bytes: 'quantum (B)',
  weights: 'weight',
  priorities: 'priority',
  deadlines_ns: 'deadline (ns)',
};

export function SchedulersSection({ scenario, onEdit }: SectionProps) {
  const net = scenario.model;
  return (
    <>
      <SchedulerCard place="interface_scheduler" legend="Network interfaces" config={net.interface_scheduler} classes={net.classes} onEdit={onEdit} />
      <SchedulerCard place="switch_scheduler" legend="Switch output ports" config={net.switch_scheduler} classes={net.classes} onEdit={onEdit} />
    </>
  );
}

interface CardProps {
  place: SchedulerPlace;
  legend: string;
  config: SchedulerConfig;
  classes: readonly NetworkClassConfig[];
  onEdit: Edit;
}

function SchedulerCard({ place, legend, config, classes, onEdit }: CardProps) {
  const path = `model.${place}`;
  const messages = useFieldErrors(path);
  const list = perClassField(config.kind);
  const shares = schedulerShares(config, classes.map(portClass));
  return (
    <fieldset className={`card${messages.length > 0 ? ' has-error' : ''}`} id={fieldId(path)} tabIndex={-1}>
      <legend>{legend}</legend>
      <FieldMessages path={path} messages={messages} />
      <div className="grid">
        <SelectField
          className="span-all"
          path={`${path}.kind`}
          label={`${legend}: scheduler`}
          value={config.kind}
          options={KINDS}
          onChange={(k: SchedulerKind) => onEdit((s) => setNetworkSchedulerKind(s, place, k))}
        />
        {list
          ? classes.map((c, i) => {
              const values = (config as Record<string, unknown>)[list];
              const value = Array.isArray(values) ? Number(values[i]) : Number.NaN;
              return (
                <NumberField
                  key={i}
                  path={`${path}.${list}[${i}]`}
                  label={`${c.name || `Class ${i}`} ${PER_CLASS_LABEL[list]}`}
                  value={value}
                  min={0}
                  step={1}
                  onChange={(v) => onEdit((s) => setNetworkPerClass(s, place, i, v))}
                />
              );
            })
          : null}
      </div>
      {shares ? (
        <p className="note" data-testid={`${place}-shares`}>
          Shares: {classes.map((c, i) => `${c.name} ${((shares[i] ?? 0) * 100).toFixed(1)} %`).join(', ')}
          {config.kind === 'dtable' || config.kind === 'iba' || config.kind === 'as_basic'
            ? ' (table entries follow the shares when the kind is switched; a scenario file can give any table).'
            : '.'}
        </p>
      ) : null}
    </fieldset>
  );
}
