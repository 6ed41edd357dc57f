// Every problem of the scenario in one list; each item moves the focus to its field.
import type { FieldError, Scenario } from '../generated';
import { describePath, fieldId } from '../shared/errors';

interface Props {
  errors: readonly FieldError[];
  scenario: Scenario;
}

function focusField(path: string) {
  // The field itself, or the nearest enclosing part of the form that exists.
  for (let p = path; ; ) {
    const el = document.getElementById(fieldId(p));
    if (el) {
      el.focus();
      el.scrollIntoView({ block: 'center' });
      return;
    }
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    if (cut <= 0) return;
    p = p.slice(0, cut);
  }
}

export function ErrorSummary({ errors, scenario }: Props) {
  return (
    <div className="error-summary" aria-live="polite" data-testid="error-summary">
      {errors.length > 0 ? (
        <>
          <p className="error-summary-title">
            {errors.length === 1 ? '1 problem' : `${errors.length} problems`} — fix {errors.length === 1 ? 'it' : 'them'} to run
          </p>
          <ul>
            {errors.map((e, k) => (
              <li key={k}>
                <button type="button" className="link" onClick={() => focusField(e.path)}>
                  {describePath(e.path, scenario)}
                </button>
                : {e.message} {e.path ? <code className="path">{e.path}</code> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
