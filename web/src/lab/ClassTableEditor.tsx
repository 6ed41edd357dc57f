// A table of classes, one per entry (the AS basic table): its size from the kind's allowed
// sizes, and a class menu per entry. The kind's module says which field and sizes.
import { colorFor } from '../charts/palette';
import { FieldMessages } from '../form/fields';
import { useFieldErrors } from '../form/fieldErrors';
import type { SchedulerConfig } from '../generated';
import { setScheduler, type LinkLabScenario } from '../shared/edit';
import { errorId, fieldId } from '../shared/errors';
import type { EditorPart, SchedulerKind } from '../schedulers/types';
import type { LabEdit } from './types';

const PATH = 'model.scheduler';

type ClassTablePart = Extract<EditorPart<SchedulerKind>, { part: 'class-table' }>;

/** Resizes a class table to `size` entries by repeating (or cutting) its pattern. */
export function resizeClassTable(table: readonly number[], size: number): number[] {
  if (table.length === 0) return new Array<number>(size).fill(0);
  return Array.from({ length: size }, (_, j) => table[j % table.length] ?? 0);
}

/** `s` with the class table of `part` changed by `change`, if the kind is still `kind`. */
function editTable(part: ClassTablePart, kind: SchedulerKind, change: (table: readonly number[]) => number[]): (s: LinkLabScenario) => LinkLabScenario {
  return (s) => {
    const sch: SchedulerConfig = s.model.scheduler;
    return sch.kind === kind ? (setScheduler(s, part.set(sch, change(part.get(sch)))) as LinkLabScenario) : s;
  };
}

interface EntryProps {
  j: number;
  value: number;
  classNames: readonly string[];
  part: ClassTablePart;
  kind: SchedulerKind;
  onEdit: LabEdit;
}

function ClassEntry({ j, value, classNames, part, kind, onEdit }: EntryProps) {
  const path = `${PATH}.${part.field}[${j}]`;
  const messages = useFieldErrors(path);
  const known = Number.isInteger(value) && value >= 0 && value < classNames.length;
  return (
    <div className={`as-entry${messages.length > 0 ? ' has-error' : ''}`}>
      <label htmlFor={fieldId(path)}>
        <span className="swatch" style={{ background: known ? colorFor(value) : 'transparent' }} aria-hidden="true" />
        <span className="visually-hidden">{`${part.entryName} ${j}`}</span>
        <span aria-hidden="true">{j}</span>
      </label>
      <select
        id={fieldId(path)}
        value={known ? String(value) : ''}
        aria-invalid={messages.length > 0 ? true : undefined}
        aria-describedby={messages.length > 0 ? errorId(path) : undefined}
        onChange={(e) => {
          const c = Number(e.target.value);
          onEdit(editTable(part, kind, (table) => table.map((x, k) => (k === j ? c : x))));
        }}
      >
        {known ? null : <option value="">(missing class {String(value)})</option>}
        {classNames.map((name, i) => (
          <option key={i} value={String(i)}>
            {i} · {name}
          </option>
        ))}
      </select>
      <FieldMessages path={path} messages={messages} />
    </div>
  );
}

export function ClassTableEditor({ scenario, onEdit, part }: { scenario: LinkLabScenario; onEdit: LabEdit; part: ClassTablePart }) {
  const config = scenario.model.scheduler;
  const path = `${PATH}.${part.field}`;
  const messages = useFieldErrors(path);
  const table = part.get(config);
  const classNames = scenario.model.classes.map((c) => c.name);
  const sizeId = `${fieldId(path)}-size`;
  const allowed = part.sizes.includes(table.length);
  return (
    <fieldset className={`card${messages.length > 0 ? ' has-error' : ''}`} id={fieldId(path)} tabIndex={-1}>
      <legend>{part.legend}</legend>
      <p className="help">{part.help}</p>
      <FieldMessages path={path} messages={messages} />
      <div className="field inline">
        <label htmlFor={sizeId}>Table size (entries)</label>
        <select
          id={sizeId}
          value={allowed ? String(table.length) : ''}
          onChange={(e) => {
            const size = Number(e.target.value);
            onEdit(editTable(part, config.kind, (t) => resizeClassTable(t, size)));
          }}
        >
          {allowed ? null : <option value="">{table.length} (not allowed)</option>}
          {part.sizes.map((z) => (
            <option key={z} value={String(z)}>
              {z}
            </option>
          ))}
        </select>
      </div>
      <div className="as-grid" role="group" aria-label={`${part.entryName.replace('entry', 'table')} entries`}>
        {table.map((c, j) => (
          <ClassEntry key={j} j={j} value={c} classNames={classNames} part={part} kind={config.kind} onEdit={onEdit} />
        ))}
      </div>
    </fieldset>
  );
}
