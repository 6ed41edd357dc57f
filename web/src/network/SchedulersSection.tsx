// The output schedulers: one for every network interface, one for every switch output
// port. The kind converts keeping the class shares (the engine computes the new kind's
// starting configuration; the choice shows as pending until it answers); per-class numbers are edited here;
// a table's entries come from the conversion (or a scenario file) and are summarised with
// the engine's shares (`useSchedulerShares`: the previous ones stay, marked as updating,
// until it answers an edit).
import { useMemo } from 'react';
import { useKindSwitch, useSchedulerShares } from '../engine/editorEngine';
import { FieldMessages, NumberField, SelectField } from '../form/fields';
import { useFieldErrors } from '../form/fieldErrors';
import type { Edit } from '../form/types';
import type { NetworkConfig } from '../generated';
import { fieldId } from '../shared/errors';
import { SCHEDULER_KINDS, SCHEDULERS, schedulerUi, type SchedulerKind } from '../schedulers/registry';
import { SharesStatus } from '../engine/SharesStatus';
import { networkSchedulerRequest, portClass, setNetworkPerClass, setNetworkScheduler, type SchedulerPlace } from './edit';
import type { SectionProps } from './sectionProps';

const KINDS = SCHEDULER_KINDS.map((kind) => ({ value: kind, label: SCHEDULERS[kind].label }));

export function SchedulersSection({ scenario, onEdit }: SectionProps) {
  const net = scenario.model;
  return (
    <>
      <SchedulerCard place="interface_scheduler" legend="Network interfaces" net={net} onEdit={onEdit} />
      <SchedulerCard place="switch_scheduler" legend="Switch output ports" net={net} onEdit={onEdit} />
    </>
  );
}

interface CardProps {
  place: SchedulerPlace;
  legend: string;
  net: NetworkConfig;
  onEdit: Edit;
}

function SchedulerCard({ place, legend, net, onEdit }: CardProps) {
  const config = net[place];
  const classes = net.classes;
  const kindSwitch = useKindSwitch();
  const switchTo = (kind: SchedulerKind) => {
    if (kind === config.kind) {
      kindSwitch.settle();
      return;
    }
    const request = networkSchedulerRequest(net, place, kind);
    const asked = JSON.stringify(request);
    kindSwitch.ask(request, (next) =>
      // Lands only on the scheduler and classes it was computed from (an edit meanwhile wins).
      onEdit((s) =>
        s.model.kind === 'network' && JSON.stringify(networkSchedulerRequest(s.model, place, kind)) === asked
          ? setNetworkScheduler(s, place, next)
          : s,
      ),
    );
  };
  const path = `model.${place}`;
  const messages = useFieldErrors(path);
  const ui = schedulerUi(config);
  const list = ui.perClass;
  const portClasses = useMemo(() => classes.map(portClass), [classes]);
  const sharesState = useSchedulerShares(config, portClasses);
  const { shares, updating } = sharesState;
  return (
    <fieldset className={`card${messages.length > 0 ? ' has-error' : ''}`} id={fieldId(path)} tabIndex={-1}>
      <legend>{legend}</legend>
      <FieldMessages path={path} messages={messages} />
      <div className="grid">
        <SelectField
          className="span-all"
          path={`${path}.kind`}
          label={`${legend}: scheduler`}
          value={kindSwitch.pending ?? config.kind}
          options={KINDS}
          onChange={switchTo}
        />
        <div role="status" className={`span-all ${kindSwitch.error ? 'field-error' : 'note'}`} data-testid={`${place}-switch-status`}>
          {kindSwitch.pending
            ? `Asking the engine for the starting ${SCHEDULERS[kindSwitch.pending].short} settings…`
            : (kindSwitch.error ?? '')}
        </div>
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
      <SharesStatus state={sharesState} testIdPrefix={`${place}-`} />
      {shares ? (
        <p className="note" data-testid={`${place}-shares`} aria-busy={updating}>
          Shares: {classes.map((c, i) => `${c.name} ${shares[i] === undefined ? '…' : `${(shares[i] * 100).toFixed(1)} %`}`).join(', ')}
          {ui.tableClasses
            ? ' (table entries follow the shares when the kind is switched; a scenario file can give any table).'
            : '.'}
        </p>
      ) : null}
    </fieldset>
  );
}
