// An arbitration table as a ring (up to 64 entries) or a strip of rows (more), each entry
// coloured by its class with its weight, and the pointer on the selected entry.
import { colorFor } from '../charts/palette';
import { ringSegment } from '../charts/ringSegment';
import type { TableView } from './model';

/** Tables larger than this are drawn as strips. */
export const RING_MAX_ENTRIES = 64;

interface Props {
  table: TableView;
  classNames: readonly string[];
}

function entryLabel(table: TableView, j: number, classNames: readonly string[]): string {
  const e = table.entries[j];
  if (!e) return '';
  const name = classNames[e.class] ?? `class ${e.class}`;
  return e.weight === undefined ? `entry ${e.index}: ${name}` : `entry ${e.index}: ${name}, weight ${e.weight}`;
}

function summary(table: TableView, classNames: readonly string[]): string {
  const p = table.pointer;
  const at = p === null ? 'no entry selected yet' : `pointer at ${entryLabel(table, p, classNames)}`;
  return `${table.title} of ${table.entries.length} entries; ${at}${table.serving ? '' : ' (not serving)'}`;
}

export function TableFigure({ table, classNames }: Props) {
  return table.entries.length <= RING_MAX_ENTRIES ? (
    <Ring table={table} classNames={classNames} />
  ) : (
    <Strip table={table} classNames={classNames} />
  );
}

function Ring({ table, classNames }: Props) {
  const size = 260;
  const c = size / 2;
  const outer = 94;
  const inner = 60;
  const n = table.entries.length;
  const step = (2 * Math.PI) / Math.max(1, n);
  const segment = ringSegment(inner, outer, n > 1 ? 0.012 : 0, 2);
  const p = table.pointer;
  const pointerAngle = p === null ? null : (p + 0.5) * step; // 0 = 12 o'clock, clockwise
  const labelled = n <= 32;
  const selectedEntry = p === null ? undefined : table.entries[p];
  return (
    <figure className={`anim-table${table.serving ? ' serving' : ''}`} data-testid={`anim-table-${table.side}`}>
      <figcaption>
        {table.title}
        {table.serving ? null : <span className="anim-muted"> (waiting)</span>}
      </figcaption>
      <svg viewBox={`0 0 ${size} ${size}`} role="img" aria-label={summary(table, classNames)}>
        <g transform={`translate(${c},${c})`}>
          {table.entries.map((e, j) => {
            const d = { start: j * step, end: (j + 1) * step, grow: j === p ? 6 : 0 };
            const mid = (j + 0.5) * step;
            const r = (inner + outer) / 2;
            return (
              <g key={j} className={j === p ? 'anim-entry selected' : 'anim-entry'}>
                <path d={segment(d) ?? ''} fill={colorFor(e.class)} stroke={j === p ? '#1c2230' : '#ffffff'} strokeWidth={j === p ? 2.5 : 1}>
                  <title>{entryLabel(table, j, classNames)}</title>
                </path>
                {labelled && e.weight !== undefined ? (
                  <text
                    x={Math.sin(mid) * r}
                    y={-Math.cos(mid) * r}
                    dy="0.35em"
                    textAnchor="middle"
                    className="anim-weight"
                    fontSize={n > 16 ? 9 : 12}
                  >
                    {e.weight}
                  </text>
                ) : null}
                {labelled && n <= 16 ? (
                  <text
                    x={Math.sin(mid) * (outer + (j === p ? 29 : 14))}
                    y={-Math.cos(mid) * (outer + (j === p ? 29 : 14))}
                    dy="0.35em"
                    textAnchor="middle"
                    className="anim-index"
                  >
                    {e.index}
                  </text>
                ) : null}
              </g>
            );
          })}
          {pointerAngle !== null ? (
            <g
              className="anim-pointer"
              data-testid={`anim-pointer-${table.side}`}
              data-entry={p ?? ''}
              transform={`rotate(${(pointerAngle * 180) / Math.PI})`}
            >
              <polygon points={`0,${-(outer + 8)} -7,${-(outer + 21)} 7,${-(outer + 21)}`} />
            </g>
          ) : null}
          <text className="anim-ring-centre" y={-2} textAnchor="middle">
            {p === null ? 'no entry yet' : `entry ${p}`}
          </text>
          {selectedEntry ? (
            <text className="anim-ring-centre-class" y={16} textAnchor="middle">
              {classNames[selectedEntry.class] ?? `class ${selectedEntry.class}`}
            </text>
          ) : null}
        </g>
      </svg>
    </figure>
  );
}

function Strip({ table, classNames }: Props) {
  const cols = 64;
  const cell = 10;
  const rows = Math.ceil(table.entries.length / cols);
  const width = cols * cell;
  const top = 12;
  const height = top + rows * (cell + 6);
  const p = table.pointer;
  return (
    <figure className={`anim-table strip${table.serving ? ' serving' : ''}`} data-testid={`anim-table-${table.side}`}>
      <figcaption>
        {table.title} ({table.entries.length} entries, {cols} per row)
        {table.serving ? null : <span className="anim-muted"> (waiting)</span>}
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary(table, classNames)}>
        {table.entries.map((e, j) => (
          <rect
            key={j}
            className={j === p ? 'anim-entry selected' : 'anim-entry'}
            x={(j % cols) * cell}
            y={top + Math.floor(j / cols) * (cell + 6)}
            width={cell - 1}
            height={cell}
            fill={colorFor(e.class)}
          >
            <title>{entryLabel(table, j, classNames)}</title>
          </rect>
        ))}
        {p !== null ? (
          <g
            className="anim-pointer"
            data-testid={`anim-pointer-${table.side}`}
            data-entry={p}
            transform={`translate(${(p % cols) * cell + (cell - 1) / 2},${top + Math.floor(p / cols) * (cell + 6)})`}
          >
            <rect x={-(cell - 1) / 2 - 1.5} y={-1.5} width={cell + 2} height={cell + 3} fill="none" strokeWidth={2} />
            <polygon points={`0,-2 -5,-10 5,-10`} />
          </g>
        ) : null}
      </svg>
    </figure>
  );
}
