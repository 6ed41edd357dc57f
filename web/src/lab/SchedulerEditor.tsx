// The port's scheduler: a kind selector that converts the configuration when the kind
// changes (the engine computes the new kind's starting configuration; the choice shows as
// pending until it answers), the editor of that kind, and the share every class gets (the
// engine's, from `useSchedulerShares`: the previous shares stay, marked as updating, until
// it answers).
import { memo, useRef } from 'react';
import { useKindSwitch, type SchedulerShares } from '../engine/editorEngine';
import { colorFor } from '../charts/palette';
import type { SchedulerConfig } from '../generated';
import { setScheduler, type LinkLabScenario } from '../shared/edit';
import { fieldId } from '../shared/errors';
import { FieldMessages, NumberField } from '../form/fields';
import { useFieldErrors } from '../form/fieldErrors';
import {
  entryCounts,
  SCHEDULER_KINDS,
  SCHEDULERS,
  schedulerUi,
  setPerClass,
  type SchedulerKind,
} from '../schedulers/registry';
import type { EditorPart } from '../schedulers/types';
import { SharesStatus } from '../engine/SharesStatus';
import { ClassTableEditor } from './ClassTableEditor';
import { FillFromWeights } from './FillFromWeights';
import { TableEditor } from './TableEditor';
import type { LabEdit } from './types';

interface Props {
  scenario: LinkLabScenario;
  onEdit: LabEdit;
}

interface EditorProps extends Props {
  /** The engine's shares of this scheduler (`useSchedulerShares`, asked by the scenario editor). */
  shares: SchedulerShares;
}

const PATH = 'model.scheduler';

export const SchedulerEditor = memo(function SchedulerEditor({ scenario, onEdit, shares }: EditorProps) {
  const config = scenario.model.scheduler;
  const classes = scenario.model.classes;
  const messages = useFieldErrors(PATH);
  // The last configuration of every kind, so switching back restores it (same classes only).
  const remembered = useRef(new Map<SchedulerKind, { config: SchedulerConfig; classes: number }>());
  const kindSwitch = useKindSwitch();
  const switchTo = (kind: SchedulerKind) => {
    remembered.current.set(config.kind, { config, classes: classes.length });
    const back = remembered.current.get(kind);
    if (kind === config.kind || (back && back.classes === classes.length)) {
      kindSwitch.settle();
      if (kind !== config.kind && back) onEdit((s) => setScheduler(s, back.config));
      return;
    }
    const from = config;
    const asked = JSON.stringify({ from, classes });
    kindSwitch.ask({ kind, from, classes: [...classes], rate_gbps: scenario.model.link.rate_gbps }, (next) =>
      // Lands only on the scheduler and classes it was computed from (an edit meanwhile wins).
      onEdit((s) => (JSON.stringify({ from: s.model.scheduler, classes: s.model.classes }) === asked ? setScheduler(s, next) : s)),
    );
  };
  const selectId = fieldId(`${PATH}.kind`);
  const shownKind = kindSwitch.pending ?? config.kind;
  return (
    <fieldset className={`card scheduler${messages.length > 0 ? ' has-error' : ''}`} id={fieldId(PATH)} tabIndex={-1}>
      <legend>Scheduler</legend>
      <div className="field">
        <label htmlFor={selectId}>Scheduler kind</label>
        <select
          id={selectId}
          value={shownKind}
          aria-describedby={`${selectId}-hint ${selectId}-status`}
          aria-busy={kindSwitch.pending !== null}
          onChange={(e) => {
            const picked = SCHEDULER_KINDS.find((k) => k === e.target.value);
            if (picked) switchTo(picked);
          }}
        >
          {SCHEDULER_KINDS.map((k) => (
            <option key={k} value={k}>
              {SCHEDULERS[k].label}
            </option>
          ))}
        </select>
        <div className="hint" id={`${selectId}-hint`}>
          Switching converts the settings and keeps each class&apos;s share where the new kind has shares.
        </div>
        <div id={`${selectId}-status`} role="status" className={kindSwitch.error ? 'field-error' : 'note'} data-testid="kind-switch-status">
          {kindSwitch.pending
            ? `Asking the engine for the starting ${SCHEDULERS[kindSwitch.pending].short} settings…`
            : (kindSwitch.error ?? '')}
        </div>
      </div>
      <FieldMessages path={PATH} messages={messages} />
      <KindEditor scenario={scenario} onEdit={onEdit} />
      <SharesTable scenario={scenario} state={shares} />
    </fieldset>
  );
});

function KindEditor({ scenario, onEdit }: Props) {
  const config = scenario.model.scheduler;
  const ui = schedulerUi(config);
  return (
    <>
      {ui.editor.map((part, k) => (
        <EditorPartView key={k} part={part} scenario={scenario} onEdit={onEdit} />
      ))}
    </>
  );
}

/** One part of the kind's editor (see `EditorPart` in `schedulers/types.ts`). */
function EditorPartView({ part, scenario, onEdit }: Props & { part: EditorPart<SchedulerKind> }) {
  const config = scenario.model.scheduler;
  switch (part.part) {
    case 'per-class':
      return <PerClassEditor scenario={scenario} onEdit={onEdit} />;
    case 'number':
      return (
        <NumberField
          path={`${PATH}.${part.field}`}
          label={part.label}
          value={part.get(config)}
          min={part.min}
          max={part.max}
          step={part.step}
          hint={part.hint}
          onChange={(v) =>
            onEdit((s) => (s.model.scheduler.kind === config.kind ? setScheduler(s, part.set(s.model.scheduler, v)) : s))
          }
        />
      );
    case 'table':
      return (
        <TableEditor
          scenario={scenario}
          onEdit={onEdit}
          side={part.side}
          legend={part.legend}
          help={part.help}
        />
      );
    case 'class-table':
      return <ClassTableEditor scenario={scenario} onEdit={onEdit} part={part} />;
    case 'fill':
      return <FillFromWeights scenario={scenario} onEdit={onEdit} />;
    case 'note':
      return <p className="help">{part.text}</p>;
  }
}

function PerClassEditor({ scenario, onEdit }: Props) {
  const config = scenario.model.scheduler;
  const meta = schedulerUi(config).perClass;
  if (!meta) return null;
  const values = meta.get(config);
  const path = `${PATH}.${meta.field}`;
  return (
    <PerClassList path={path} help={meta.help}>
      {scenario.model.classes.map((c, i) => (
        <NumberField
          key={i}
          path={`${path}[${i}]`}
          label={
            <>
              <span className="swatch" style={{ background: colorFor(i) }} aria-hidden="true" />
              {meta.label} of class {i} · {c.name} ({meta.unit})
            </>
          }
          value={values[i] ?? Number.NaN}
          min={meta.min}
          max={meta.max}
          step={meta.step}
          onChange={(v) => onEdit((s) => setScheduler(s, setPerClass(s.model.scheduler, i, v)))}
        />
      ))}
    </PerClassList>
  );
}

function PerClassList({ path, help, children }: { path: string; help: string; children: React.ReactNode }) {
  const messages = useFieldErrors(path);
  return (
    <div className="per-class" id={fieldId(path)} tabIndex={-1}>
      <p className="help">{help}</p>
      <FieldMessages path={path} messages={messages} />
      <div className="grid">{children}</div>
    </div>
  );
}

function percent(x: number): string {
  return `${(x * 100).toFixed(1)} %`;
}

/**
 * Bandwidth share per class (for the kinds that divide bandwidth by weights), as the
 * engine last answered: while a newer answer is awaited the previous shares stay, marked
 * busy; a refusal shows as "shares unavailable" with the engine's reason.
 */
function SharesTable({ scenario, state }: { scenario: LinkLabScenario; state: SchedulerShares }) {
  const config = scenario.model.scheduler;
  const classes = scenario.model.classes;
  const { shares, updating } = state;
  const ui = schedulerUi(config);
  if (shares === undefined) return <SharesStatus state={state} />;
  if (shares === null) {
    return (
      <p className="note" data-testid="no-shares" aria-busy={updating}>
        {ui.sharesNote}
      </p>
    );
  }
  const hasTable = ui.tableClasses !== undefined;
  const counts = entryCounts(config, classes.length);
  return (
    <table className="shares" aria-label="Bandwidth share per class" aria-busy={updating} data-updating={updating}>
      <caption className="note">
        {ui.sharesNote}
        {updating ? <span className="visually-hidden"> Updating…</span> : null}
      </caption>
      <thead>
        <tr>
          <th scope="col">Class</th>
          {hasTable ? <th scope="col">Entries</th> : null}
          <th scope="col">Share</th>
        </tr>
      </thead>
      <tbody>
        {classes.map((c, i) => {
          // A class added while the answer is awaited has no share yet.
          const share = shares[i];
          return (
            <tr key={i}>
              <th scope="row">
                <span className="swatch" style={{ background: colorFor(i) }} aria-hidden="true" />
                {i} · {c.name}
              </th>
              {hasTable ? <td>{counts[i] ?? 0}</td> : null}
              <td className="share-cell">
                <span className="bar" aria-hidden="true">
                  <span style={{ width: `${Math.min(100, (share ?? 0) * 100)}%`, background: colorFor(i) }} />
                </span>
                {share === undefined ? '…' : percent(share)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
