// The evaluation of the table being edited: per class a bar with the achievable range
// (min to max share), the achieved share and the wanted share marked; entries, weights,
// largest distance against the requested one and the worst-case bound; and every violated
// constraint in words. A live region announces each new evaluation in one sentence.
import { colorFor } from '../charts/palette';
import type { DesignEntry } from '../generated';
import { entryWeightsText, evaluationSummary, nsText, shareText, splitViolations, type ClassEvaluation, type Evaluation } from './evaluation';

interface Props {
  evaluation: Evaluation | null;
  table: readonly DesignEntry[];
  /** Requested distance per class name ('' = none), from the form. */
  distances: ReadonlyMap<string, string>;
  /** What w and k the evaluation checked against, in words. */
  basis: string;
  /** Why there is no evaluation (engine errors), if there is none. */
  problems: readonly string[];
  pending: boolean;
  /** High-priority entries of the fabric settings (InfiniBand high table, Omni-Path HighPriority). */
  highEntries?: number;
}

const BAR_W = 130;
const BAR_H = 18;

function ShareBar({ c, index }: { c: ClassEvaluation; index: number }) {
  const x = (s: number) => Math.max(0, Math.min(1, s)) * BAR_W;
  const label = `${c.name}: achieved share ${shareText(c.share)}, wanted ${shareText(c.wanted_share)}, possible ${shareText(c.min_share)} to ${shareText(c.max_share)}`;
  return (
    <svg width={BAR_W + 2} height={BAR_H + 8} viewBox={`-1 -4 ${BAR_W + 2} ${BAR_H + 8}`} role="img" aria-label={label}>
      <rect x={0} y={0} width={BAR_W} height={BAR_H} fill="#f1f3f5" stroke="#adb5bd" />
      <rect x={x(c.min_share)} y={2} width={Math.max(1, x(c.max_share) - x(c.min_share))} height={BAR_H - 4} fill={colorFor(index)} opacity={0.25} />
      <rect x={0} y={5} width={x(c.share)} height={BAR_H - 10} fill={colorFor(index)} />
      <line x1={x(c.wanted_share)} x2={x(c.wanted_share)} y1={-3} y2={BAR_H + 3} stroke="#000000" strokeWidth={2} />
    </svg>
  );
}

export function EvaluationPanel({ evaluation, table, distances, basis, problems, pending, highEntries = 0 }: Props) {
  const { errors, advice } = splitViolations(evaluation?.violations ?? []);
  const weighted = evaluation?.pool !== null;
  const summary = evaluation ? evaluationSummary(evaluation) : problems.length > 0 ? 'The table cannot be evaluated.' : '';
  return (
    <section className="design-evaluation" aria-labelledby="design-eval-title" data-testid="design-evaluation" aria-busy={pending}>
      <h3 id="design-eval-title">Evaluation</h3>
      <p className="visually-hidden" aria-live="polite" data-testid="design-live">
        {summary}
      </p>
      {evaluation ? (
        <>
          <p className="design-pool" data-testid="design-pool">
            {evaluation.pool === null
              ? 'No weights: each class gets its fraction of the entries'
              : `Pool ${evaluation.pool} credits; largest entry weight M = ${evaluation.max_entry_weight ?? '—'}`}
; link {evaluation.link_rate_gbps} Gb/s{basis ? `; ${basis}` : ''}.
          </p>
          {highEntries > 0 ? (
            <p className="design-high-note" data-testid="design-high-note">
              Shares and wait bounds are of the designed table alone:{' '}
              {highEntries === 1
                ? 'the high-priority entry of the fabric settings is'
                : `the ${highEntries} high-priority entries of the fabric settings are`}{' '}
              served first and can add to every wait. “Simulate this table” runs both.
            </p>
          ) : null}
          <div className="table-scroll">
            <table className="design-eval-table">
              <thead>
                <tr>
                  <th scope="col">Class</th>
                  <th scope="col">Entries</th>
                  {weighted ? (
                    <>
                      <th scope="col">Weights</th>
                      <th scope="col">Total</th>
                    </>
                  ) : null}
                  <th scope="col">Min share</th>
                  <th scope="col">Achieved</th>
                  <th scope="col">Max share</th>
                  <th scope="col">Wanted</th>
                  <th scope="col">
                    Shares <span className="design-eval-key">(range · achieved · | wanted)</span>
                  </th>
                  <th scope="col" title="Largest distance between entries of the class / the distance asked for">
                    Distance / asked
                  </th>
                  <th scope="col" title="Worst-case wait of a head-of-line packet at the link rate">
                    Wait bound
                  </th>
                </tr>
              </thead>
              <tbody>
                {evaluation.classes.map((c, i) => {
                  const requested = distances.get(c.name) ?? '';
                  const far = requested !== '' && c.max_distance > Number(requested);
                  return (
                    <tr key={`${i}-${c.name}`} data-testid={`design-class-${c.name}`}>
                      <th scope="row">
                        <span className="swatch" style={{ background: colorFor(i) }} aria-hidden="true" />
                        {c.name}
                      </th>
                      <td data-testid="entries">{c.entries}</td>
                      {weighted ? (
                        <>
                          <td data-testid="weights">{entryWeightsText(table, c.name)}</td>
                          <td data-testid="total">{c.total_weight ?? '—'}</td>
                        </>
                      ) : null}
                      <td data-testid="min">{shareText(c.min_share)}</td>
                      <td data-testid="share">{shareText(c.share)}</td>
                      <td data-testid="max">{shareText(c.max_share)}</td>
                      <td data-testid="wanted">{shareText(c.wanted_share)}</td>
                      <td>
                        <ShareBar c={c} index={i} />
                      </td>
                      <td data-testid="distance" className={far ? 'bad' : undefined}>
                        {c.max_distance ?? '—'} / {requested === '' ? 'none' : requested}
                      </td>
                      <td data-testid="bound">{nsText(c.bound_ns)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {errors.length > 0 ? (
            <div className="design-violations" data-testid="design-violations">
              <h4>{errors.length === 1 ? '1 constraint violated' : `${errors.length} constraints violated`}</h4>
              <ul>
                {errors.map((v, i) => (
                  <li key={i} data-rule={v.rule}>
                    {v.message}
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <p className="design-ok" data-testid="design-ok">
              Every constraint is met.
            </p>
          )}
          {advice.length > 0 ? (
            <div className="design-advice" data-testid="design-advice">
              <h4>Advice</h4>
              <ul>
                {advice.map((v, i) => (
                  <li key={i} data-rule={v.rule}>
                    {v.message}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </>
      ) : problems.length > 0 ? (
        <div role="alert" className="design-problems">
          <p>The table cannot be evaluated:</p>
          <ul>
            {problems.map((p, i) => (
              <li key={i}>{p}</li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="placeholder">{pending ? 'Evaluating…' : 'Design a table (Auto-design) or import one to see its evaluation.'}</p>
      )}
    </section>
  );
}
