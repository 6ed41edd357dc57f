// The port's scheduler: a kind selector that converts the configuration when the kind
// changes, the editor of that kind, and the bandwidth share every class gets from it.
import { memo, useRef, useState } from 'react';
import { colorFor } from '../charts/palette';
import type { SchedulerConfig, ServiceListKind } from '../generated';
import { setScheduler, setTable, type LinkLabScenario } from '../shared/edit';
import { errorId, fieldId } from '../shared/errors';
import { FieldMessages, NumberField, parseNumber } from '../form/fields';
import { useFieldErrors } from '../form/fieldErrors';
import {
  AS_TABLE_SIZES,
  IBA_MAX,
  convertScheduler,
  entryCounts,
  perClassField,
  schedulerShares,
  SCHEDULER_KINDS,
  setPerClass,
  type SchedulerKind,
} from '../shared/schedulers';
import { useServiceList } from './serviceList';
import { TableEditor } from './TableEditor';
import type { LabEdit } from './types';
import { outcomeLines } from '../engine/outcome';

interface Props {
  scenario: LinkLabScenario;
  onEdit: LabEdit;
}

const PATH = 'model.scheduler';

export const SchedulerEditor = memo(function SchedulerEditor({ scenario, onEdit }: Props) {
  const config = scenario.model.scheduler;
  const classes = scenario.model.classes;
  const messages = useFieldErrors(PATH);
  // The last configuration of every kind, so switching back restores it (same classes only).
  const remembered = useRef(new Map<SchedulerKind, { config: SchedulerConfig; classes: number }>());
  const switchTo = (kind: SchedulerKind) => {
    remembered.current.set(config.kind, { config, classes: classes.length });
    const back = remembered.current.get(kind);
    onEdit((s) => {
      const next =
        back && back.classes === s.model.classes.length
          ? back.config
          : convertScheduler(s.model.scheduler, kind, s.model.classes, s.model.link.rate_gbps);
      return setScheduler(s, next);
    });
  };
  const selectId = fieldId(`${PATH}.kind`);
  return (
    <fieldset className={`card scheduler${messages.length > 0 ? ' has-error' : ''}`} id={fieldId(PATH)} tabIndex={-1}>
      <legend>Scheduler</legend>
      <div className="field">
        <label htmlFor={selectId}>Scheduler kind</label>
        <select
          id={selectId}
          value={config.kind}
          aria-describedby={`${selectId}-hint`}
          onChange={(e) => {
            const picked = SCHEDULER_KINDS.find((k) => k.kind === e.target.value);
            if (picked) switchTo(picked.kind);
          }}
        >
          {SCHEDULER_KINDS.map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.label}
            </option>
          ))}
        </select>
        <div className="hint" id={`${selectId}-hint`}>
          Switching converts the settings and keeps each class&apos;s share where the new kind has shares.
        </div>
      </div>
      <FieldMessages path={PATH} messages={messages} />
      <KindEditor scenario={scenario} onEdit={onEdit} />
      <SharesTable scenario={scenario} />
    </fieldset>
  );
});

function KindEditor({ scenario, onEdit }: Props) {
  const config = scenario.model.scheduler;
  switch (config.kind) {
    case 'dtable':
      return (
        <>
          <TableEditor scenario={scenario} onEdit={onEdit} />
          <FillFromWeights scenario={scenario} onEdit={onEdit} />
        </>
      );
    case 'iba':
      return (
        <>
          <NumberField
            path={`${PATH}.high_limit`}
            label="High limit (4096-byte units)"
            value={config.high_limit}
            min={0}
            max={IBA_MAX}
            step={1}
            hint="0 to 255: bytes the high table may send while low packets wait; 255 = unbounded."
            onChange={(v) =>
              onEdit((s) => (s.model.scheduler.kind === 'iba' ? setScheduler(s, { ...s.model.scheduler, high_limit: v }) : s))
            }
          />
          <TableEditor
            scenario={scenario}
            onEdit={onEdit}
            side="high"
            legend="IBA high-priority table"
            help="Served first. Entries are cycled in order; weight 0 to 255 in 64-byte units (0 = entry skipped); at most 64 entries."
            minWeight={0}
            maxWeight={IBA_MAX}
          />
          <TableEditor
            scenario={scenario}
            onEdit={onEdit}
            side="low"
            legend="IBA low-priority table"
            help="Served when the high table has nothing to send or its high limit is used up. Weights 0 to 255 (64-byte units)."
            minWeight={0}
            maxWeight={IBA_MAX}
          />
          <FillFromWeights scenario={scenario} onEdit={onEdit} />
        </>
      );
    case 'as_basic':
      return (
        <>
          <AsBasicEditor scenario={scenario} onEdit={onEdit} />
          <FillFromWeights scenario={scenario} onEdit={onEdit} />
        </>
      );
    case 'fifo':
      return <p className="help">FIFO sends packets in arrival order, whatever their class: nothing to configure.</p>;
    default:
      return <PerClassEditor scenario={scenario} onEdit={onEdit} />;
  }
}

const PER_CLASS: Record<string, { label: string; unit: string; help: string; min: number; max: number; step: number | 'any' }> = {
  quanta_bytes: {
    label: 'Quantum',
    unit: 'bytes',
    help: 'Bytes each class may send per round (1 to 16,777,216); shares follow the quanta. A quantum below the largest packet makes rounds longer.',
    min: 1,
    max: 16_777_216,
    step: 1,
  },
  weights: {
    label: 'Weight',
    unit: 'relative',
    help: 'Relative weight of each class (above 0); share = weight ÷ all weights.',
    min: 0,
    max: 1e9,
    step: 'any',
  },
  priorities: {
    label: 'Priority',
    unit: '0–255',
    help: 'Higher priority sends first; equal priorities go to the lower class index. Lower classes can starve.',
    min: 0,
    max: 255,
    step: 1,
  },
  deadlines_ns: {
    label: 'Deadline',
    unit: 'ns',
    help: 'Relative deadline of each class (1 ns to 10^12 ns): the packet with the earliest arrival + deadline goes first.',
    min: 1,
    max: 1e12,
    step: 1,
  },
};

function PerClassEditor({ scenario, onEdit }: Props) {
  const config = scenario.model.scheduler;
  const field = perClassField(config.kind);
  if (!field || !(field in config)) return null;
  const values = (config as unknown as Record<string, number[]>)[field] ?? [];
  const meta = PER_CLASS[field];
  if (!meta) return null;
  const path = `${PATH}.${field}`;
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

/** Resizes an AS table to `size` entries by repeating (or cutting) its pattern. */
export function resizeAsTable(table: readonly number[], size: number): number[] {
  if (table.length === 0) return new Array<number>(size).fill(0);
  return Array.from({ length: size }, (_, j) => table[j % table.length] ?? 0);
}

function AsEntry({ j, value, classNames, onEdit }: { j: number; value: number; classNames: readonly string[]; onEdit: LabEdit }) {
  const path = `${PATH}.table[${j}]`;
  const messages = useFieldErrors(path);
  const known = Number.isInteger(value) && value >= 0 && value < classNames.length;
  return (
    <div className={`as-entry${messages.length > 0 ? ' has-error' : ''}`}>
      <label htmlFor={fieldId(path)}>
        <span className="swatch" style={{ background: known ? colorFor(value) : 'transparent' }} aria-hidden="true" />
        <span className="visually-hidden">{`AS entry ${j}`}</span>
        <span aria-hidden="true">{j}</span>
      </label>
      <select
        id={fieldId(path)}
        value={known ? String(value) : ''}
        aria-invalid={messages.length > 0 ? true : undefined}
        aria-describedby={messages.length > 0 ? errorId(path) : undefined}
        onChange={(e) => {
          const c = Number(e.target.value);
          onEdit((s) =>
            s.model.scheduler.kind === 'as_basic'
              ? setScheduler(s, { ...s.model.scheduler, table: s.model.scheduler.table.map((x, k) => (k === j ? c : x)) })
              : s,
          );
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

function AsBasicEditor({ scenario, onEdit }: Props) {
  const config = scenario.model.scheduler;
  const path = `${PATH}.table`;
  const messages = useFieldErrors(path);
  if (config.kind !== 'as_basic') return null;
  const classNames = scenario.model.classes.map((c) => c.name);
  const sizeId = `${fieldId(path)}-size`;
  return (
    <fieldset className={`card${messages.length > 0 ? ' has-error' : ''}`} id={fieldId(path)} tabIndex={-1}>
      <legend>AS basic arbitration table</legend>
      <p className="help">
        Entries are cycled in order; each sends one packet of its class (VC), whatever its size, so a class&apos;s
        byte share grows with its packet size.
      </p>
      <FieldMessages path={path} messages={messages} />
      <div className="field inline">
        <label htmlFor={sizeId}>Table size (entries)</label>
        <select
          id={sizeId}
          value={AS_TABLE_SIZES.includes(config.table.length) ? String(config.table.length) : ''}
          onChange={(e) => {
            const size = Number(e.target.value);
            onEdit((s) =>
              s.model.scheduler.kind === 'as_basic'
                ? setScheduler(s, { ...s.model.scheduler, table: resizeAsTable(s.model.scheduler.table, size) })
                : s,
            );
          }}
        >
          {AS_TABLE_SIZES.includes(config.table.length) ? null : <option value="">{config.table.length} (not allowed)</option>}
          {AS_TABLE_SIZES.map((z) => (
            <option key={z} value={String(z)}>
              {z}
            </option>
          ))}
        </select>
      </div>
      <div className="as-grid" role="group" aria-label="AS table entries">
        {config.table.map((c, j) => (
          <AsEntry key={j} j={j} value={c} classNames={classNames} onEdit={onEdit} />
        ))}
      </div>
    </fieldset>
  );
}

const LIST_KINDS: readonly { value: ServiceListKind; label: string }[] = [
  { value: 'wf2q', label: 'WF²Q interleaved (best latency)' },
  { value: 'uniform', label: 'Uniformly interleaved' },
  { value: 'simple', label: 'Simply interleaved' },
];

/**
 * "Fill table from weights": entries per class, interleaved by one of the engine's service
 * lists; DTable and IBA entries all get one weight.
 */
function FillFromWeights({ scenario, onEdit }: Props) {
  const serviceList = useServiceList();
  const config = scenario.model.scheduler;
  const n = scenario.model.classes.length;
  const [counts, setCounts] = useState<string[]>(() => entryCounts(config, n).map(String));
  const [listKind, setListKind] = useState<ServiceListKind>('wf2q');
  const [entryWeight, setEntryWeight] = useState(() => {
    const first = config.kind === 'dtable' ? config.table[0] : config.kind === 'iba' ? config.low[0] : undefined;
    return String(first?.weight ?? 32);
  });
  const [status, setStatus] = useState<{ error: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const id = 'fill-from-weights';
  const shown = Array.from({ length: n }, (_, i) => counts[i] ?? '0');
  const numbers = shown.map(parseNumber);
  const total = numbers.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  const weight = parseNumber(entryWeight);
  const maxWeight = config.kind === 'iba' ? IBA_MAX : 65535;
  const maxTotal = config.kind === 'iba' ? 64 : config.kind === 'as_basic' ? 1024 : 4096;
  let problem: string | null = null;
  if (numbers.some((x) => !Number.isInteger(x) || x < 0)) problem = 'Entries per class must be whole numbers, 0 or more.';
  else if (total === 0) problem = 'Give at least one class an entry.';
  else if (config.kind === 'as_basic' && !AS_TABLE_SIZES.includes(total))
    problem = `An AS basic table holds 32, 64, 128, 256, 512 or 1024 entries (now ${total}).`;
  else if (total > maxTotal) problem = `At most ${maxTotal} entries (now ${total}).`;
  else if (config.kind !== 'as_basic' && !(Number.isInteger(weight) && weight >= (config.kind === 'iba' ? 0 : 1) && weight <= maxWeight))
    problem = `The entry weight must be a whole number from ${config.kind === 'iba' ? 0 : 1} to ${maxWeight}.`;
  const fill = async () => {
    if (!serviceList || problem) return;
    setBusy(true);
    setStatus(null);
    try {
      const outcome = await serviceList(listKind, numbers);
      if (outcome.status !== 'done') {
        setStatus({ error: true, text: `The engine refused: ${outcomeLines(outcome).join('; ')}` });
        return;
      }
      const list = outcome.list;
      onEdit((s) => {
        const sch = s.model.scheduler;
        if (sch.kind === 'as_basic') return setScheduler(s, { ...sch, table: list });
        const table = list.map((c) => ({ class: c, weight }));
        return setTable(s, table, sch.kind === 'iba' ? 'low' : 'main');
      });
      setStatus({ error: false, text: `Filled ${list.length} entries.` });
    } catch (e) {
      setStatus({ error: true, text: `The engine failed: ${String(e)}` });
    } finally {
      setBusy(false);
    }
  };
  const target = config.kind === 'iba' ? 'the low table' : 'the table';
  return (
    <details className="card fill">
      <summary>Fill {target} from weights</summary>
      <p className="help">
        Entries per class (in proportion to the bandwidth each should get), interleaved by a service list computed by
        the engine. This replaces {target}.
      </p>
      <div className="grid">
        {shown.map((v, i) => (
          <div className="field" key={i}>
            <label htmlFor={`${id}-${i}`}>
              <span className="swatch" style={{ background: colorFor(i) }} aria-hidden="true" />
              Entries of class {i} · {scenario.model.classes[i]?.name}
            </label>
            <input
              id={`${id}-${i}`}
              type="number"
              min={0}
              step={1}
              value={v}
              onChange={(e) => setCounts(shown.map((x, k) => (k === i ? e.target.value : x)))}
            />
          </div>
        ))}
        <div className="field">
          <label htmlFor={`${id}-kind`}>Interleaving</label>
          <select id={`${id}-kind`} value={listKind} onChange={(e) => setListKind(e.target.value as ServiceListKind)}>
            {LIST_KINDS.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
        {config.kind === 'as_basic' ? null : (
          <div className="field">
            <label htmlFor={`${id}-weight`}>Weight of every entry ({config.kind === 'iba' ? '64 B units' : 'credits'})</label>
            <input
              id={`${id}-weight`}
              type="number"
              min={config.kind === 'iba' ? 0 : 1}
              max={maxWeight}
              step={1}
              value={entryWeight}
              onChange={(e) => setEntryWeight(e.target.value)}
            />
          </div>
        )}
      </div>
      <div className="row">
        <button type="button" disabled={!serviceList || problem !== null || busy} onClick={() => void fill()}>
          Fill {target}
        </button>
        <span className="note">{total} entries</span>
      </div>
      {problem ? <div className="field-error">{problem}</div> : null}
      {!serviceList ? <div className="note">The engine is not available.</div> : null}
      <div role="status" className={status?.error ? 'field-error' : 'note'}>
        {status?.text ?? ''}
      </div>
    </details>
  );
}

function percent(x: number): string {
  return `${(x * 100).toFixed(1)} %`;
}

/** Bandwidth share per class (for the kinds that divide bandwidth by weights). */
function SharesTable({ scenario }: { scenario: LinkLabScenario }) {
  const config = scenario.model.scheduler;
  const classes = scenario.model.classes;
  const shares = schedulerShares(config, classes);
  if (!shares) {
    return (
      <p className="note" data-testid="no-shares">
        {config.kind === 'fifo' ? 'FIFO' : config.kind === 'edf' ? 'EDF' : 'Strict priority'} does not reserve
        bandwidth: classes share the link by arrival order, deadline or priority.
      </p>
    );
  }
  const counts =
    config.kind === 'iba'
      ? classes.map((_, i) => [...config.high, ...config.low].filter((e) => e.class === i).length)
      : entryCounts(config, classes.length);
  const note =
    config.kind === 'as_basic'
      ? 'Share of bytes expected from the entries × each class’s mean packet size (one packet per entry).'
      : config.kind === 'iba'
        ? 'Share of the weights of both tables (the high table also goes first, up to its limit).'
        : 'Share of the weights.';
  return (
    <table className="shares" aria-label="Bandwidth share per class">
      <caption className="note">{note}</caption>
      <thead>
        <tr>
          <th scope="col">Class</th>
          {config.kind === 'dtable' || config.kind === 'as_basic' || config.kind === 'iba' ? <th scope="col">Entries</th> : null}
          <th scope="col">Share</th>
        </tr>
      </thead>
      <tbody>
        {classes.map((c, i) => {
          const share = shares[i] ?? 0;
          return (
            <tr key={i}>
              <th scope="row">
                <span className="swatch" style={{ background: colorFor(i) }} aria-hidden="true" />
                {i} · {c.name}
              </th>
              {config.kind === 'dtable' || config.kind === 'as_basic' || config.kind === 'iba' ? (
                <td>{counts[i] ?? 0}</td>
              ) : null}
              <td className="share-cell">
                <span className="bar" aria-hidden="true">
                  <span style={{ width: `${Math.min(100, share * 100)}%`, background: colorFor(i) }} />
                </span>
                {percent(share)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
