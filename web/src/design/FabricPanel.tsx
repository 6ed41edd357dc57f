// Fabric-manager settings of an InfiniBand or Omni-Path design: the OpenSM port-type prefix,
// the high-priority table and its limit, and the SL2VL map (SLs without a class go to a VL
// the user picks; the engine's default is shown until then). Omni-Path: the high-priority
// classes only. Engine messages for `fabric.*` paths are shown under the fields they name.
import type { Design } from '../generated';
import type { ErrorsByPath } from '../shared/errors';
import { PREFIXES, defaultFabric, type FabricForm } from './fabric';
import type { DesignForm } from './model';
import { ENGINE_LIMITS } from '../generated/limits';

interface Props {
  form: DesignForm;
  design: Design | null;
  errors: ErrorsByPath;
  onChange: (fabric: FabricForm) => void;
}

const SLS = 16;

function Messages({ paths, errors }: { paths: string[]; errors: ErrorsByPath }) {
  const list = paths.flatMap((p) => (errors.get(p) ?? []).map((m) => `${p}: ${m}`));
  if (list.length === 0) return null;
  return (
    <ul className="field-error" role="alert">
      {list.map((m, i) => (
        <li key={i}>{m}</li>
      ))}
    </ul>
  );
}

export function FabricPanel({ form, design, errors, onChange }: Props) {
  const fabric = form.fabric ?? defaultFabric();
  const ib = form.technology === 'infiniband';
  const names = form.classes.map((c) => c.name);
  const set = (patch: Partial<FabricForm>) => onChange({ ...fabric, ...patch });
  const shownMap: string[] | null = fabric.sl2vl ?? design?.fabric?.sl2vl?.map(String) ?? null;
  const vlLabel = (v: string) => (v === '15' ? 'VL 15 (drop)' : `VL ${v} (${names[Number(v)] ?? '?'})`);
  const vlChoices = [...names.map((_, i) => String(i)), '15'];
  const explicitMap = (): string[] => shownMap ?? Array.from({ length: SLS }, (_, sl) => String(sl < names.length ? sl : 0));
  const fabricErrors = [...errors.keys()].filter((p) => p.startsWith('fabric'));
  return (
    <section className="design-fabric" aria-labelledby="design-fabric-title">
      <h3 id="design-fabric-title">Fabric manager settings</h3>
      <p className="hint">
        {ib
          ? 'Exported with the OpenSM lines: the designed table is the low table; add a high table, its limit and where SLs without a class go.'
          : 'Omni-Path: the classes listed here get HighPriority in opafm.xml (the FM ignores their bandwidth share).'}
      </p>
      {ib ? (
        <label>
          OpenSM port type{' '}
          <select value={fabric.prefix} onChange={(e) => set({ prefix: e.target.value as FabricForm['prefix'] })} data-testid="fabric-prefix">
            {PREFIXES.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <h4>{ib ? 'High-priority table (VLArb high)' : 'High-priority classes'}</h4>
      {fabric.high.length === 0 ? <p className="hint">Empty{ib ? ' (exported as one skipped entry, 0:0)' : ''}.</p> : null}
      <ol className="fabric-high">
        {fabric.high.map((h, k) => (
          <li key={k}>
            <select
              aria-label={`High entry ${k + 1} class`}
              value={h.class}
              onChange={(e) => set({ high: fabric.high.map((x, j) => (j === k ? { ...x, class: e.target.value } : x)) })}
            >
              {names.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
            {ib ? (
              <input
                aria-label={`High entry ${k + 1} weight`}
                inputMode="numeric"
                size={4}
                value={h.weight}
                onChange={(e) => set({ high: fabric.high.map((x, j) => (j === k ? { ...x, weight: e.target.value } : x)) })}
              />
            ) : null}
            <button type="button" onClick={() => set({ high: fabric.high.filter((_, j) => j !== k) })}>
              Remove
            </button>
          </li>
        ))}
      </ol>
      <button type="button" disabled={names.length === 0} onClick={() => set({ high: [...fabric.high, { class: names[0] ?? '', weight: ib ? '1' : String(ENGINE_LIMITS.iba_max_weight) }] })}>
        Add a high-priority {ib ? 'entry' : 'class'}
      </button>
      {ib ? (
        <>
          <label className="fabric-limit">
            High limit (4 KiB units, {ENGINE_LIMITS.iba_high_limit_unbounded} = unbounded){' '}
            <input inputMode="numeric" size={4} value={fabric.highLimit} placeholder="0" onChange={(e) => set({ highLimit: e.target.value })} />
          </label>
          <h4>SL to VL</h4>
          {shownMap === null ? (
            <p className="hint">Valid requirements show the map here.</p>
          ) : (
            <>
              <label>
                SLs without a class go to{' '}
                <select
                  aria-label="SLs without a class go to"
                  value=""
                  onChange={(e) => {
                    const v = e.target.value;
                    if (v === '') return;
                    set({ sl2vl: explicitMap().map((x, sl) => (sl < names.length ? String(sl) : v)) });
                  }}
                >
                  <option value="">choose…</option>
                  {vlChoices.map((v) => (
                    <option key={v} value={v}>
                      {vlLabel(v)}
                    </option>
                  ))}
                </select>
              </label>
              {fabric.sl2vl === null ? <p className="hint">Not chosen: SLs without a class go to the most latency-tolerant class (shown below), never to VL 15.</p> : null}
              <table className="fabric-sl2vl" data-testid="fabric-sl2vl">
                <tbody>
                  {shownMap.map((vl, sl) => (
                    <tr key={sl}>
                      <th scope="row">SL {sl}</th>
                      <td>
                        {sl < names.length ? (
                          vlLabel(String(sl))
                        ) : (
                          <select
                            aria-label={`SL ${sl} VL`}
                            value={vl}
                            onChange={(e) => set({ sl2vl: explicitMap().map((x, j) => (j === sl ? e.target.value : x)) })}
                          >
                            {vlChoices.map((v) => (
                              <option key={v} value={v}>
                                {vlLabel(v)}
                              </option>
                            ))}
                          </select>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
        </>
      ) : null}
      <Messages paths={fabricErrors} errors={errors} />
    </section>
  );
}
