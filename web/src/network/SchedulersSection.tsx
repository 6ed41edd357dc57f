// The output schedulers: one for every network interface, one for every switch output
// port. The kind converts keeping the class shares; per-class numbers are edited here;
// a table's entries come from the conversion (or a scenario file) and are summarised.
import { FieldMessages, NumberField, SelectField } from '../form/fields';
import { useFieldErrors } from '../form/fieldErrors';
import type { Edit } from '../form/types';
import type { NetworkClassConfig, SchedulerConfig } from '../generated';
import { fieldId } from '../shared/errors';
import { SCHEDULER_KINDS, SCHEDULERS, schedulerShares, schedulerUi, type SchedulerKind } from '../schedulers/registry';
import { portClass, setNetworkPerClass, setNetworkSchedulerKind, type SchedulerPlace } from './edit';
import type { SectionProps } from './sectionProps';

const KINDS = SCHEDULER_KINDS.map((kind) => ({ value: kind, label: SCHEDULERS[kind].label }));

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
  const ui = schedulerUi(config);
  const list = ui.perClass;
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
              const value = list.get(config)[i] ?? Number.NaN;
              return (
                <NumberField
                  key={i}
                  path={`${path}.${list.field}[${i}]`}
                  label={`${c.name || `Class ${i}`} ${list.short}`}
                  value={value}
                  min={list.min}
                  max={list.max}
                  step={list.step}
                  onChange={(v) => onEdit((s) => setNetworkPerClass(s, place, i, v))}
                />
              );
            })
          : null}
      </div>
      {shares ? (
        <p className="note" data-testid={`${place}-shares`}>
          Shares: {classes.map((c, i) => `${c.name} ${((shares[i] ?? 0) * 100).toFixed(1)} %`).join(', ')}
          {ui.tableClasses
            ? ' (table entries follow the shares when the kind is switched; a scenario file can give any table).'
            : '.'}
        </p>
      ) : null}
    </fieldset>
  );
}
