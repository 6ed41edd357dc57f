// Which class (SL) a grouped study's charts show: one at a time (a line per series in each
// panel), or every class as small multiples (a panel per panel value and class).
import type { ClassChoice } from './groups';

export function ClassChooser({ prefix, classes, choice, onChoice }: { prefix: string; classes: readonly string[]; choice: ClassChoice; onChoice: (c: ClassChoice) => void }) {
  return (
    <section className="panel experiment-class-chooser" aria-label="Class shown">
      <div className="field">
        <label htmlFor={`${prefix}-class`}>Service level shown</label>
        <select
          id={`${prefix}-class`}
          value={String(choice)}
          onChange={(e) => onChoice(e.target.value === 'all' ? 'all' : Number(e.target.value))}
          aria-describedby={`${prefix}-class-hint`}
        >
          {classes.map((c, i) => (
            <option key={c} value={i}>
              {c}
            </option>
          ))}
          <option value="all">All (small multiples)</option>
        </select>
        <div className="hint" id={`${prefix}-class-hint`}>
          The charts below show this SL in every panel, a line per configuration of the panel; “All” draws a panel per SL.
        </div>
      </div>
    </section>
  );
}
