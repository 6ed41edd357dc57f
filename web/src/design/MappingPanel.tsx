// How the design Auto-design makes for the requirements maps onto each technology (the
// engine's `Design.mappings`): fits or not, how, what is lost, what prevents it.
import type { TechnologyMapping } from '../generated';
import { TECHNOLOGIES } from './model';

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
          </li>
        ))}
      </ul>
    </section>
  );
}
