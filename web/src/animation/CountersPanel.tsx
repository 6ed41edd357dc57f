// The registers after the decision (pointers, accumulated, remaining weight, high limit,
// virtual time), per-class counters (queue, credits, deficit, head tags, deadline) and the
// work of the decision.
import { deficitUnit, formatValue, type StepView } from './model';

interface Props {
  view: StepView;
  kind: string;
  workText: string;
}

function tag(v: number | null | undefined): string {
  return v === null || v === undefined ? '—' : formatValue(v);
}

export function CountersPanel({ view, kind, workText }: Props) {
  const hasDeficit = view.classes.some((c) => c.deficit !== undefined);
  const hasStart = view.classes.some((c) => c.startTag !== undefined);
  const hasFinish = view.classes.some((c) => c.finishTag !== undefined);
  const hasDeadline = view.classes.some((c) => c.deadlineNs !== undefined);
  const selected = view.selected === null ? null : view.classes[view.selected];
  return (
    <div className="anim-counters">
      <div>
        <h3>Registers after the decision</h3>
        <dl className="anim-registers">
          {view.tables.map((t) => (
            <div key={t.side}>
              <dt>{view.tables.length > 1 ? `${t.side === 'high' ? 'High' : 'Low'} pointer` : 'Pointer'}</dt>
              <dd data-testid={`anim-counter-pointer-${t.side}`} data-value={t.pointer ?? ''}>
                {t.pointer === null ? '—' : `entry ${t.pointer}`}
                {t.serving && view.tables.length > 1 ? ' (serving)' : ''}
              </dd>
            </div>
          ))}
          <div>
            <dt>Selected class</dt>
            <dd data-testid="anim-selected" data-class={view.selected ?? ''}>
              {selected ? (
                <>
                  <span className="swatch" style={{ background: selected.color }} aria-hidden="true" /> {selected.name}
                </>
              ) : (
                '—'
              )}
            </dd>
          </div>
          {view.counters.map((c) => (
            <div key={c.id}>
              <dt>{c.label}</dt>
              <dd data-testid={`anim-counter-${c.id}`} data-value={c.value}>
                {c.before !== null && c.before !== c.value ? (
                  <>
                    <span className="anim-before">{formatValue(c.before)} →</span> {c.text}
                  </>
                ) : (
                  c.text
                )}
              </dd>
            </div>
          ))}
          <div>
            <dt>Sent</dt>
            <dd data-testid="anim-sent" data-class={view.packet.class}>
              {view.classes[view.packet.class]?.name ?? `class ${view.packet.class}`}: {view.packet.bytes} B ({view.packet.credits}{' '}
              {view.packet.credits === 1 ? 'credit' : 'credits'})
            </dd>
          </div>
          <div>
            <dt>Work</dt>
            <dd data-testid="anim-work">{workText}</dd>
          </div>
        </dl>
      </div>
      <div className="anim-class-table-wrap">
        <h3>Classes</h3>
        <table className="anim-class-table" data-testid="anim-classes">
          <thead>
            <tr>
              <th scope="col">Class</th>
              <th scope="col">Queue (pkts)</th>
              <th scope="col">Free credits</th>
              {hasDeficit ? <th scope="col">Deficit ({deficitUnit(kind)})</th> : null}
              {hasStart ? <th scope="col">Head start tag</th> : null}
              {hasFinish ? <th scope="col">Head finish tag</th> : null}
              {hasDeadline ? <th scope="col">Head deadline (ns)</th> : null}
            </tr>
          </thead>
          <tbody>
            {view.classes.map((c) => (
              <tr key={c.index} className={c.sends ? 'sends' : undefined}>
                <th scope="row">
                  <span className="swatch" style={{ background: c.color }} aria-hidden="true" /> {c.name}
                  {c.sends ? <span className="visually-hidden"> (sends)</span> : null}
                </th>
                <td>{c.length}</td>
                <td>
                  {c.freeCredits} / {c.bufferCredits}
                </td>
                {hasDeficit ? (
                  <td data-testid={`anim-deficit-${c.index}`} data-value={c.deficit ?? ''}>
                    {c.deficitBefore !== undefined && c.deficit !== c.deficitBefore ? (
                      <span className="anim-before">{c.deficitBefore} → </span>
                    ) : null}
                    {c.deficit ?? '—'}
                  </td>
                ) : null}
                {hasStart ? <td data-testid={`anim-start-${c.index}`}>{tag(c.startTag)}</td> : null}
                {hasFinish ? <td data-testid={`anim-finish-${c.index}`}>{tag(c.finishTag)}</td> : null}
                {hasDeadline ? <td data-testid={`anim-deadline-${c.index}`}>{tag(c.deadlineNs)}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
