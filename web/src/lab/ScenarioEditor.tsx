// The scenario being edited: a link lab (general settings, the classes, the scheduler) or
// a network (the network editor's sections); a network-processor node has no editor (a note instead).
import { memo, useCallback } from 'react';
import { flushSync } from 'react-dom';
import type { Scenario } from '../generated';
import type { Engine } from '../engine/client';
import { useSchedulerShares } from '../engine/editorEngine';
import { isNetwork } from '../network/networkScenario';
import { NetworkEditor } from '../network/NetworkEditor';
import { ClassEditor } from './ClassEditor';
import { addClass, isLinkLab, MAX_CLASSES, type LinkLabScenario } from '../shared/edit';
import { fieldId } from '../shared/errors';
import { FieldMessages } from '../form/fields';
import { useFieldErrors } from '../form/fieldErrors';
import { GeneralEditor } from './GeneralEditor';
import { isNetworkProcessor, NpScenarioNote } from './NpScenarioNote';
import { SchedulerEditor } from './SchedulerEditor';
import type { Edit } from '../form/types';
import type { LabEdit } from './types';

interface Props {
  scenario: Scenario;
  onEdit: Edit;
  /** The engine's validation (the network editor asks it which routings fit a topology). */
  validate: Engine['validate'];
}

export const ScenarioEditor = memo(function ScenarioEditor({ scenario, onEdit, validate }: Props) {
  const labEdit: LabEdit = useCallback((f) => onEdit((s) => (isLinkLab(s) ? f(s) : s)), [onEdit]);
  if (isNetwork(scenario)) return <NetworkEditor scenario={scenario} onEdit={onEdit} validate={validate} />;
  if (isNetworkProcessor(scenario)) return <NpScenarioNote scenario={scenario} />;
  if (!isLinkLab(scenario)) return null;
  return <LinkLabEditor scenario={scenario} onEdit={labEdit} />;
});

const LinkLabEditor = memo(function LinkLabEditor({ scenario, onEdit }: { scenario: LinkLabScenario; onEdit: LabEdit }) {
  const classes = scenario.model.classes;
  // The engine's shares, for the class cards and the share table under the scheduler.
  const shares = useSchedulerShares(scenario.model.scheduler, classes);
  const classesMessages = useFieldErrors('model.classes');
  return (
    <div className="editor-body">
      <GeneralEditor scenario={scenario} onEdit={onEdit} />
      <section className="classes" aria-labelledby="classes-title" id={fieldId('model.classes')} tabIndex={-1}>
        <h3 id="classes-title">Traffic classes</h3>
        <FieldMessages path="model.classes" messages={classesMessages} />
        {classes.map((c, i) => (
          <ClassEditor
            key={i}
            index={i}
            cls={c}
            share={shares.shares === null ? null : shares.shares?.[i]}
            shareUpdating={shares.updating}
            shareError={shares.error}
            linkRateGbps={scenario.model.link.rate_gbps}
            canRemove={classes.length > 1}
            onEdit={onEdit}
          />
        ))}
        <div className="row">
          <button
            type="button"
            disabled={classes.length >= MAX_CLASSES}
            onClick={() => {
              flushSync(() => onEdit(addClass));
              document.getElementById(fieldId(`model.classes[${classes.length}].name`))?.focus();
            }}
          >
            Add class
          </button>
          <span className="note">
            {classes.length} of at most {MAX_CLASSES} classes; a new class gets a share of the scheduler.
          </span>
        </div>
      </section>
      <SchedulerEditor scenario={scenario} onEdit={onEdit} shares={shares} />
    </div>
  );
});
