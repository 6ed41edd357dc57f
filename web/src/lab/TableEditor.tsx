// A weighted arbitration table (the DTable table, an IBA high or low table): an ordered
// list of (class, weight in 64-byte units) entries, with add / remove / move.
import { memo, useState } from 'react';
import { flushSync } from 'react-dom';
import { colorFor } from '../charts/palette';
import type { Scenario } from '../generated';
import { addEntry, CREDIT_BYTES, modelClasses, moveEntry, removeEntry, setEntry, tableLimits, tableOf, tablePath, type TableSide } from '../shared/edit';
import { errorId, fieldId } from '../shared/errors';
import { FieldMessages, parseNumber } from '../form/fields';
import { useFieldErrors } from '../form/fieldErrors';
import type { Edit } from '../form/types';

interface Props {
  scenario: Scenario;
  onEdit: Edit;
  /** Which table (default: the DTable table). */
  side?: TableSide;
  /** Legend of the table. */
  legend?: string;
  /** Help text under the legend. */
  help?: string;
}

/** Label prefix of the entries of a table ("Entry 3 weight", "High entry 3 weight"). */
function entryLabel(side: TableSide, j: number): string {
  return side === 'main' ? `Entry ${j}` : `${side === 'high' ? 'High' : 'Low'} entry ${j}`;
}

/** DOM id prefix of an entry's buttons. */
function entryKey(side: TableSide, j: number): string {
  return side === 'main' ? `entry-${j}` : `${side}-entry-${j}`;
}

function bytesText(weight: number): string {
  if (!Number.isFinite(weight)) return '';
  const b = weight * CREDIT_BYTES;
  return b >= 1024 ? `${Number((b / 1024).toFixed(2))} KiB` : `${b} B`;
}

function focusLater(id: string) {
  document.getElementById(id)?.focus();
}

interface RowProps {
  side: TableSide;
  minWeight: number;
  maxWeight: number;
  j: number;
  count: number;
  entryClass: number;
  weight: number;
  classNames: readonly string[];
  onEdit: Edit;
}

const EntryRow = memo(function EntryRow({ side, minWeight, maxWeight, j, count, entryClass, weight, classNames, onEdit }: RowProps) {
  const at = `${tablePath(side)}[${j}]`;
  const label = entryLabel(side, j);
  const key = (n: number) => entryKey(side, n);
  const entryMessages = useFieldErrors(at);
  const classMessages = useFieldErrors(`${at}.class`);
  const weightMessages = useFieldErrors(`${at}.weight`);
  const [draft, setDraft] = useState(() => (Number.isFinite(weight) ? String(weight) : ''));
  const [seen, setSeen] = useState(weight);
  if (!Object.is(seen, weight)) {
    setSeen(weight);
    if (!Object.is(parseNumber(draft), weight)) setDraft(Number.isFinite(weight) ? String(weight) : '');
  }
  const known = Number.isInteger(entryClass) && entryClass >= 0 && entryClass < classNames.length;
  const move = (delta: number, button: 'up' | 'down') => {
    flushSync(() => onEdit((s) => moveEntry(s, j, delta, side)));
    const to = j + delta;
    // Keep the keyboard on the entry that moved (or on the other button at the ends).
    const other = button === 'up' ? 'down' : 'up';
    const atEnd = (button === 'up' && to === 0) || (button === 'down' && to === count - 1);
    focusLater(`${key(to)}-${atEnd ? other : button}`);
  };
  const messages = [...entryMessages, ...classMessages, ...weightMessages];
  return (
    <tr className={messages.length > 0 ? 'has-error' : undefined}>
      <th scope="row">{j}</th>
      <td>
        <div className="entry-class">
          <span className="swatch" style={{ background: known ? colorFor(entryClass) : 'transparent' }} aria-hidden="true" />
          <label className="visually-hidden" htmlFor={fieldId(`${at}.class`)}>
            {label} class
          </label>
          <select
            id={fieldId(`${at}.class`)}
            value={known ? String(entryClass) : ''}
            aria-invalid={classMessages.length > 0 ? true : undefined}
            aria-describedby={classMessages.length > 0 ? errorId(`${at}.class`) : undefined}
            onChange={(e) => onEdit((s) => setEntry(s, j, { class: Number(e.target.value) }, side))}
          >
            {known ? null : <option value="">(missing class {String(entryClass)})</option>}
            {classNames.map((name, i) => (
              <option key={i} value={String(i)}>
                {i} · {name}
              </option>
            ))}
          </select>
        </div>
        <FieldMessages path={`${at}.class`} messages={classMessages} />
      </td>
      <td>
        <label className="visually-hidden" htmlFor={fieldId(`${at}.weight`)}>
          {label} weight
        </label>
        <div className="entry-weight">
          <input
            id={fieldId(`${at}.weight`)}
            className="weight"
            type="number"
            inputMode="numeric"
            min={minWeight}
            max={maxWeight}
            step={1}
            value={draft}
            aria-invalid={weightMessages.length > 0 ? true : undefined}
            aria-describedby={weightMessages.length > 0 ? errorId(`${at}.weight`) : undefined}
            onChange={(e) => {
              setDraft(e.target.value);
              const v = parseNumber(e.target.value);
              onEdit((s) => setEntry(s, j, { weight: v }, side));
            }}
          />
          <span className="bytes">{bytesText(weight)}</span>
        </div>
        <FieldMessages path={`${at}.weight`} messages={weightMessages} />
        <FieldMessages path={at} messages={entryMessages} />
      </td>
      <td className="actions">
        <button
          type="button"
          className="icon"
          id={`${key(j)}-up`}
          aria-label={`Move ${label.toLowerCase()} up`}
          title="Move up"
          disabled={j === 0}
          onClick={() => move(-1, 'up')}
        >
          ↑
        </button>
        <button
          type="button"
          className="icon"
          id={`${key(j)}-down`}
          aria-label={`Move ${label.toLowerCase()} down`}
          title="Move down"
          disabled={j === count - 1}
          onClick={() => move(1, 'down')}
        >
          ↓
        </button>
        <button
          type="button"
          className="icon danger"
          aria-label={`Remove ${label.toLowerCase()}`}
          title="Remove"
          onClick={() => onEdit((s) => removeEntry(s, j, side))}
        >
          ✕
        </button>
      </td>
    </tr>
  );
});

const DTABLE_HELP =
  'Entries are cycled in order; each lets its class send up to its weight in 64-byte credits (unused weight is kept as a deficit). Class share = its weights ÷ all weights.';

export const TableEditor = memo(function TableEditor({
  scenario,
  onEdit,
  side = 'main',
  legend = 'DTable arbitration table',
  help = DTABLE_HELP,
}: Props) {
  const table = tableOf(scenario, side);
  const classes = modelClasses(scenario.model);
  const classNames = classes.map((c) => c.name);
  const path = tablePath(side);
  const tableMessages = useFieldErrors(path);
  const total = table.reduce((sum, e) => sum + (Number.isFinite(e.weight) && e.weight > 0 ? e.weight : 0), 0);
  const { maxEntries: max, minWeight, maxWeight } = tableLimits(scenario, side);
  return (
    <fieldset className={`card${tableMessages.length > 0 ? ' has-error' : ''}`} id={fieldId(path)} tabIndex={-1}>
      <legend>{legend}</legend>
      <p className="help">{help}</p>
      <FieldMessages path={path} messages={tableMessages} />
      <div className="table-scroll">
        <table className="entries">
          <caption className="visually-hidden">{legend}: entries</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Class</th>
              <th scope="col">Weight ({side === 'main' ? 'credits' : '64 B units'})</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {table.map((e, j) => (
              <EntryRow
                key={j}
                side={side}
                minWeight={minWeight}
                maxWeight={maxWeight}
                j={j}
                count={table.length}
                entryClass={e.class}
                weight={e.weight}
                classNames={classNames}
                onEdit={onEdit}
              />
            ))}
          </tbody>
        </table>
      </div>
      <div className="row">
        <button
          type="button"
          disabled={table.length >= max}
          onClick={() => {
            flushSync(() => onEdit((s) => addEntry(s, side)));
            focusLater(fieldId(`${path}[${table.length}].weight`));
          }}
        >
          {side === 'main' ? 'Add entry' : `Add ${side} entry`}
        </button>
        <span className="note">
          {table.length} {table.length === 1 ? 'entry' : 'entries'} (at most {max}), total weight {total}
        </span>
      </div>
    </fieldset>
  );
});
