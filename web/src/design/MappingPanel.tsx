// How the design Auto-design makes for the requirements maps onto each technology (the
// engine's `Design.mappings`): fits or not, how, what is lost, what prevents it; for
// Omni-Path, the registers of the DTable adaptation as the engine counted them.
import type { OmniPathDTableLayout, TechnologyMapping } from '../generated';
import { TECHNOLOGIES } from './model';

/** The Omni-Path DTable adaptation's registers: per output and for the whole switch. */
export function OmniPathLayout({ layout: l }: { layout: OmniPathDTableLayout }) {
  return (
    <table className="design-opa-layout" data-testid="design-opa-layout">
      <caption>
        Omni-Path DTable adaptation on a {l.switch_ports}-port switch with {l.sls} SLs: a dedicated table next to each
        output&apos;s SL arbiter (not the InfiniBand 64/16/1 layout)
      </caption>
      <thead>
        <tr>
          <th scope="col">Register</th>
          <th scope="col">Per output</th>
          <th scope="col">Switch</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">DTable ({l.entries_per_table} entries)</th>
          <td>1</td>
          <td>{l.tables}</td>
        </tr>
        <tr>
          <th scope="row">Deficit counters (one per SL)</th>
          <td>{l.deficit_counters_per_output}</td>
          <td>{l.deficit_counters}</td>
        </tr>
        <tr>
          <th scope="row">Accumulated-weight registers</th>
          <td>1</td>
          <td>{l.accumulators}</td>
        </tr>
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={3}>
            This design uses {l.sls_used} of the {l.sls} SLs; deficits reach {l.max_deficit_credits} credits, the register{' '}
            {l.max_accumulated_credits}.
          </td>
        </tr>
      </tfoot>
    </table>
  );
}

function label(m: TechnologyMapping): string {
  return TECHNOLOGIES.find((t) => t.value === m.technology)?.label.split(' (')[0] ?? m.technology;
}

export function MappingPanel({ mappings }: { mappings: readonly TechnologyMapping[] }) {
  if (mappings.length === 0) return null;
  return (
    <section className="design-mappings" aria-labelledby="design-mappings-title" data-testid="design-mappings">
      <h3 id="design-mappings-title">The design on each technology</h3>
      <p className="hint">For the table Auto-design makes from these requirements (not the edits).</p>
      <ul>
        {mappings.map((m) => (
          <li key={m.technology} data-testid={`design-mapping-${m.technology}`} data-fits={m.fits}>
            <details>
              <summary>
                <strong>{label(m)}</strong>: <span className={m.fits ? 'fits' : 'misfit'}>{m.fits ? 'fits' : 'does not fit'}</span>. {m.summary}
              </summary>
              {m.details.length > 0 ? (
                <ul>
                  {m.details.map((d, i) => (
                    <li key={i}>{d}</li>
                  ))}
                </ul>
              ) : null}
              {m.problems.length > 0 ? (
                <ul className="problems">
                  {m.problems.map((p, i) => (
                    <li key={i}>{p}</li>
                  ))}
                </ul>
              ) : null}
            </details>
            {m.omnipath_layout ? <OmniPathLayout layout={m.omnipath_layout} /> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
