// The DTable: an ordered list of (class, weight in 64-byte credits) entries, with
// add / remove / move, and the bandwidth share each class gets from it.
import { memo, useState } from 'react';
import { flushSync } from 'react-dom';
import { colorFor } from '../charts/palette';
import type { Scenario } from '../generated';
import { addEntry, CREDIT_BYTES, MAX_TABLE_ENTRIES, moveEntry, removeEntry, setEntry, tableOf } from './edit';
import { errorId, fieldId } from './errors';
import { FieldMessages, parseNumber } from './fields';
import { useFieldErrors } from './fieldErrors';
import type { Edit } from './types';

interface Props {
  scenario: Scenario;
  shares: readonly number[];
  onEdit: Edit;
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
  j: number;
  count: number;
  entryClass: number;
  weight: number;
  classNames: readonly string[];
  onEdit: Edit;
}

const EntryRow = memo(function EntryRow({ j, count, entryClass, weight, classNames, onEdit }: RowProps) {
  const at = `model.scheduler.table[${j}]`;
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
    flushSync(() => onEdit((s) => moveEntry(s, j, delta)));
    const to = j + delta;
    // Keep the keyboard on the entry that moved (or on the other button at the ends).
    const other = button === 'up' ? 'down' : 'up';
    const atEnd = (button === 'up' && to === 0) || (button === 'down' && to === count - 1);
    focusLater(`entry-${to}-${atEnd ? other : button}`);
  };
  const messages = [...entryMessages, ...classMessages, ...weightMessages];
  return (
    <tr className={messages.length > 0 ? 'has-error' : undefined}>
      <th scope="row">{j}</th>
      <td>
        <div className="entry-class">
          <span className="swatch" style={{ background: known ? colorFor(entryClass) : 'transparent' }} aria-hidden="true" />
          <label className="visually-hidden" htmlFor={fieldId(`${at}.class`)}>
            Entry {j} class
          </label>
          <select
            id={fieldId(`${at}.class`)}
            value={known ? String(entryClass) : ''}
            aria-invalid={classMessages.length > 0 ? true : undefined}
            aria-describedby={classMessages.length > 0 ? errorId(`${at}.class`) : undefined}
            onChange={(e) => onEdit((s) => setEntry(s, j, { class: Number(e.target.value) }))}
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
          Entry {j} weight
        </label>
        <div className="entry-weight">
          <input
            id={fieldId(`${at}.weight`)}
            className="weight"
            type="number"
            inputMode="numeric"
            min={1}
            max={65535}
            step={1}
            value={draft}
            aria-invalid={weightMessages.length > 0 ? true : undefined}
            aria-describedby={weightMessages.length > 0 ? errorId(`${at}.weight`) : undefined}
            onChange={(e) => {
              setDraft(e.target.value);
              const v = parseNumber(e.target.value);
              onEdit((s) => setEntry(s, j, { weight: v }));
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
          id={`entry-${j}-up`}
          aria-label={`Move entry ${j} up`}
          title="Move up"
          disabled={j === 0}
          onClick={() => move(-1, 'up')}
        >
          ↑
        </button>
        <button
          type="button"
          className="icon"
          id={`entry-${j}-down`}
          aria-label={`Move entry ${j} down`}
          title="Move down"
          disabled={j === count - 1}
          onClick={() => move(1, 'down')}
        >
          ↓
        </button>
        <button
          type="button"
          className="icon danger"
          aria-label={`Remove entry ${j}`}
          title="Remove"
          onClick={() => onEdit((s) => removeEntry(s, j))}
        >
          ✕
        </button>
      </td>
    </tr>
  );
});

export const TableEditor = memo(function TableEditor({ scenario, shares, onEdit }: Props) {
  const table = tableOf(scenario);
  const classes = scenario.model.classes;
  const classNames = classes.map((c) => c.name);
  const path = 'model.scheduler.table';
  const tableMessages = useFieldErrors(path);
  const total = table.reduce((sum, e) => sum + (Number.isFinite(e.weight) && e.weight > 0 ? e.weight : 0), 0);
  return (
    <fieldset className={`card${tableMessages.length > 0 ? ' has-error' : ''}`} id={fieldId(path)} tabIndex={-1}>
      <legend>DTable arbitration table</legend>
      <p className="help">
        Entries are cycled in order; each lets its class send up to its weight in 64-byte credits (unused weight is
        kept as a deficit). Class share = its weights ÷ all weights.
      </p>
      <FieldMessages path={path} messages={tableMessages} />
      <div className="table-scroll">
        <table className="entries">
          <caption className="visually-hidden">Table entries</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Class</th>
              <th scope="col">Weight (credits)</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {table.map((e, j) => (
              <EntryRow
                key={j}
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
        <button type="button" disabled={table.length >= MAX_TABLE_ENTRIES} onClick={() => {
          flushSync(() => onEdit(addEntry));
          focusLater(fieldId(`${path}[${table.length}].weight`));
        }}>
          Add entry
        </button>
        <span className="note">
          {table.length} {table.length === 1 ? 'entry' : 'entries'}, total weight {total} credits
        </span>
      </div>
      <table className="shares" aria-label="Bandwidth share per class">
        <thead>
          <tr>
            <th scope="col">Class</th>
            <th scope="col">Entries</th>
            <th scope="col">Weight</th>
            <th scope="col">Share</th>
          </tr>
        </thead>
        <tbody>
          {classes.map((c, i) => {
            const mine = table.filter((e) => e.class === i);
            const weight = mine.reduce((sum, e) => sum + (Number.isFinite(e.weight) && e.weight > 0 ? e.weight : 0), 0);
            const share = shares[i] ?? 0;
            return (
              <tr key={i}>
                <th scope="row">
                  <span className="swatch" style={{ background: colorFor(i) }} aria-hidden="true" />
                  {i} · {c.name}
                </th>
                <td>{mine.length}</td>
                <td>{weight}</td>
                <td className="share-cell">
                  <span className="bar" aria-hidden="true">
                    <span style={{ width: `${Math.min(100, share * 100)}%`, background: colorFor(i) }} />
                  </span>
                  {(share * 100).toFixed(1)} %
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </fieldset>
  );
});
