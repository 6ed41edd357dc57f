// "Fill the table from weights": entries per class, interleaved by one of the engine's
// service lists, written into the kind's table by its module (`SchedulerUi.fill`).
import { useState } from 'react';
import { colorFor } from '../charts/palette';
import { useEditorEngine } from '../engine/editorEngine';
import { outcomeLines } from '../engine/outcome';
import { parseNumber } from '../form/fields';
import type { ServiceListKind } from '../generated';
import { schedulerUi } from '../schedulers/registry';
import { setScheduler, type LinkLabScenario } from '../shared/edit';
import type { LabEdit } from './types';

interface Props {
  scenario: LinkLabScenario;
  onEdit: LabEdit;
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
export function FillFromWeights({ scenario, onEdit }: Props) {
  const engine = useEditorEngine();
  const config = scenario.model.scheduler;
  const n = scenario.model.classes.length;
  const spec = schedulerUi(config).fill;
  const current = spec?.current(config);
  const [counts, setCounts] = useState<string[]>(() => {
    const c = new Array<number>(n).fill(0);
    for (const k of current?.classes ?? []) if (Number.isInteger(k) && k >= 0 && k < n) c[k] = (c[k] ?? 0) + 1;
    return c.map(String);
  });
  const [listKind, setListKind] = useState<ServiceListKind>('wf2q');
  const [entryWeight, setEntryWeight] = useState(() => String(current?.weight ?? 32));
  const [status, setStatus] = useState<{ error: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  if (!spec) return null;
  const id = 'fill-from-weights';
  const shown = Array.from({ length: n }, (_, i) => counts[i] ?? '0');
  const numbers = shown.map(parseNumber);
  const total = numbers.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  const weight = parseNumber(entryWeight);
  const ew = spec.entryWeight;
  let problem: string | null = null;
  if (numbers.some((x) => !Number.isInteger(x) || x < 0)) problem = 'Entries per class must be whole numbers, 0 or more.';
  else if (total === 0) problem = 'Give at least one class an entry.';
  else if (spec.totals && !spec.totals.sizes.includes(total))
    problem = `${spec.totals.subject} holds ${listInWords(spec.totals.sizes)} entries (now ${total}).`;
  else if (total > spec.maxEntries) problem = `At most ${spec.maxEntries} entries (now ${total}).`;
  else if (ew && !(Number.isInteger(weight) && weight >= ew.min && weight <= ew.max))
    problem = `The entry weight must be a whole number from ${ew.min} to ${ew.max}.`;
  const fill = async () => {
    if (!engine || problem) return;
    setBusy(true);
    setStatus(null);
    try {
      const outcome = await engine.serviceList(listKind, numbers);
      if (outcome.status !== 'done') {
        setStatus({ error: true, text: `The engine refused: ${outcomeLines(outcome).join('; ')}` });
        return;
      }
      const list = outcome.list;
      onEdit((s) => {
        const sch = s.model.scheduler;
        const fill = schedulerUi(sch).fill;
        return sch.kind === config.kind && fill ? setScheduler(s, fill.apply(sch, list, weight)) : s;
      });
      setStatus({ error: false, text: `Filled ${list.length} entries.` });
    } catch (e) {
      setStatus({ error: true, text: `The engine failed: ${String(e)}` });
    } finally {
      setBusy(false);
    }
  };
  const target = spec.target;
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
        {!ew ? null : (
          <div className="field">
            <label htmlFor={`${id}-weight`}>Weight of every entry ({ew.unit})</label>
            <input
              id={`${id}-weight`}
              type="number"
              min={ew.min}
              max={ew.max}
              step={1}
              value={entryWeight}
              onChange={(e) => setEntryWeight(e.target.value)}
            />
          </div>
        )}
      </div>
      <div className="row">
        <button type="button" disabled={!engine || problem !== null || busy} onClick={() => void fill()}>
          Fill {target}
        </button>
        <span className="note">{total} entries</span>
      </div>
      {problem ? <div className="field-error">{problem}</div> : null}
      {!engine ? <div className="note">The engine is not available.</div> : null}
      <div role="status" className={status?.error ? 'field-error' : 'note'}>
        {status?.text ?? ''}
      </div>
    </details>
  );
}


/** "32, 64 or 128". */
function listInWords(values: readonly number[]): string {
  const all = values.map(String);
  return all.length <= 1 ? (all[0] ?? '') : `${all.slice(0, -1).join(', ')} or ${all[all.length - 1]}`;
}
