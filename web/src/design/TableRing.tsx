// The designed table as an editable ring: every entry a segment coloured by its class
// (its weight outside), entry 0 at 12 o'clock, clockwise. Click an entry or use the keys
// (arrows move, C / Shift+C change the class, + / - change the weight) to select and edit
// it; the fields under the ring edit the selected entry too.
import { useState, type KeyboardEvent } from 'react';
import { colorFor } from '../charts/palette';
import { ringSegment } from '../charts/ringSegment';
import type { DesignEntry } from '../generated';
import { cycleClass, moveKey, parseWeight } from './model';

interface Props {
  table: readonly DesignEntry[];
  names: readonly string[];
  selected: number;
  onSelect: (index: number) => void;
  onChange: (index: number, entry: DesignEntry) => void;
  /** Largest weight the technology allows (null: entries carry no weight). */
  maxWeight: number | null;
}

/** Entries beyond which the weights are not written around the ring. */
const LABEL_MAX = 64;

function entryText(e: DesignEntry | undefined, j: number): string {
  if (!e) return '';
  return e.weight === null ? `Entry ${j}: ${e.class}` : `Entry ${j}: ${e.class}, weight ${e.weight}`;
}

export function TableRing({ table, names, selected, onSelect, onChange, maxWeight }: Props) {
  const n = table.length;
  const size = 360;
  const c = size / 2;
  const outer = 138;
  const inner = 96;
  const step = (2 * Math.PI) / Math.max(1, n);
  const segment = ringSegment(inner, outer, n > 1 && n <= 256 ? 0.01 : 0);
  const sel = Math.min(Math.max(0, selected), Math.max(0, n - 1));
  const current = table[sel];
  const weighted = maxWeight !== null;

  const changeWeight = (delta: number) => {
    if (!current || current.weight === null) return;
    const w = Math.max(0, Math.min(maxWeight ?? 65_535, current.weight + delta));
    onChange(sel, { ...current, weight: w });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const to = moveKey(e.key, sel, n);
    if (to !== null) {
      onSelect(to);
    } else if ((e.key === 'c' || e.key === 'C') && current) {
      onChange(sel, { ...current, class: cycleClass(names, current.class, e.shiftKey ? -1 : 1) });
    } else if ((e.key === '+' || e.key === '=') && weighted) {
      changeWeight(1);
    } else if ((e.key === '-' || e.key === '_') && weighted) {
      changeWeight(-1);
    } else {
      return;
    }
    e.preventDefault();
  };

  return (
    <div className="design-ring-wrap">
      <div
        className="design-ring"
        role="listbox"
        tabIndex={0}
        aria-label={`Table of ${n} entries. Arrow keys move, C and Shift+C change the class${weighted ? ', plus and minus change the weight' : ''}.`}
        aria-activedescendant={n > 0 ? `design-entry-${sel}` : undefined}
        onKeyDown={onKeyDown}
        data-testid="design-ring"
        data-selected={sel}
      >
        <svg viewBox={`0 0 ${size} ${size}`} aria-hidden={n === 0 ? true : undefined}>
          <g transform={`translate(${c},${c})`}>
            {table.map((e, j) => {
              const k = names.indexOf(e.class);
              const isSel = j === sel;
              const d = segment({ start: j * step, end: (j + 1) * step, grow: isSel ? 8 : 0 }) ?? '';
              const mid = (j + 0.5) * step;
              const r = outer + 16;
              return (
                <g key={j}>
                  <path
                    id={`design-entry-${j}`}
                    role="option"
                    aria-selected={isSel}
                    aria-label={entryText(e, j)}
                    d={d}
                    fill={k < 0 ? '#ffffff' : colorFor(k)}
                    stroke={isSel ? '#000000' : k < 0 ? '#b00020' : '#ffffff'}
                    strokeWidth={isSel ? 3 : 1}
                    strokeDasharray={k < 0 ? '3 2' : undefined}
                    onClick={() => onSelect(j)}
                    data-class={e.class}
                    data-weight={e.weight ?? ''}
                    className="design-entry"
                  />
                  {n <= LABEL_MAX && e.weight !== null ? (
                    <text
                      x={Math.sin(mid) * r}
                      y={-Math.cos(mid) * r}
                      textAnchor="middle"
                      dominantBaseline="central"
                      className={`design-entry-weight${isSel ? ' selected' : ''}`}
                      aria-hidden="true"
                    >
                      {e.weight}
                    </text>
                  ) : null}
                </g>
              );
            })}
            {current ? (
              // The selected entry's outline again, on top of its neighbours.
              <path
                d={segment({ start: sel * step, end: (sel + 1) * step, grow: 8 }) ?? ''}
                fill="none"
                stroke="#000000"
                strokeWidth={3}
                pointerEvents="none"
                aria-hidden="true"
              />
            ) : null}
            <text y={-12} textAnchor="middle" className="design-ring-centre" aria-hidden="true">
              {n === 0 ? 'no table yet' : `Entry ${sel}`}
            </text>
            {current ? (
              <text y={12} textAnchor="middle" className="design-ring-centre strong" aria-hidden="true">
                {current.weight === null ? current.class : `${current.class} · ${current.weight}`}
              </text>
            ) : null}
          </g>
        </svg>
      </div>
      {current ? (
        <EntryEditor
          key={sel}
          index={sel}
          entry={current}
          names={names}
          maxWeight={maxWeight}
          onChange={(entry) => onChange(sel, entry)}
        />
      ) : null}
      <ul className="design-legend" aria-label="Classes">
        {names.map((name, k) => (
          <li key={`${k}-${name}`}>
            <span className="swatch" style={{ background: colorFor(k) }} aria-hidden="true" />
            {name}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The selected entry's class and weight as form fields. */
function EntryEditor({
  index,
  entry,
  names,
  maxWeight,
  onChange,
}: {
  index: number;
  entry: DesignEntry;
  names: readonly string[];
  maxWeight: number | null;
  onChange: (entry: DesignEntry) => void;
}) {
  const [draft, setDraft] = useState(entry.weight === null ? '' : String(entry.weight));
  const [seen, setSeen] = useState(entry.weight);
  if (seen !== entry.weight) {
    setSeen(entry.weight);
    setDraft(entry.weight === null ? '' : String(entry.weight));
  }
  const parsed = parseWeight(draft);
  const bad = entry.weight !== null && (parsed === null || (maxWeight !== null && parsed > maxWeight));
  return (
    <fieldset className="design-entry-editor">
      <legend>Selected entry: {index}</legend>
      <label>
        Selected entry class
        <select value={names.includes(entry.class) ? entry.class : ''} onChange={(e) => onChange({ ...entry, class: e.target.value })}>
          {names.includes(entry.class) ? null : (
            <option value="" disabled>
              {entry.class === '' ? '(no class)' : `${entry.class} (not a class)`}
            </option>
          )}
          {names.map((name, k) => (
            <option key={`${k}-${name}`} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      {entry.weight !== null ? (
        <label>
          Selected entry weight
          <input
            type="number"
            min={0}
            max={maxWeight ?? undefined}
            step={1}
            value={draft}
            aria-invalid={bad ? true : undefined}
            aria-describedby={bad ? 'design-entry-weight-error' : undefined}
            onChange={(e) => {
              setDraft(e.target.value);
              const w = parseWeight(e.target.value);
              if (w !== null && (maxWeight === null || w <= maxWeight)) {
                setSeen(w);
                onChange({ ...entry, weight: w });
              }
            }}
          />
        </label>
      ) : null}
      {bad ? (
        <div className="field-error" id="design-entry-weight-error">
          The weight must be a whole number from 0 to {maxWeight ?? 65_535}.
        </div>
      ) : null}
    </fieldset>
  );
}
