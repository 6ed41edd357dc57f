// The panels a grouped study's sweep runs (R3: which topologies), as checkboxes; the
// choice travels in the share link (`panels=`).
export function PanelChooser({
  prefix,
  label,
  panels,
  chosen,
  onChange,
  problem,
}: {
  prefix: string;
  /** What the panels are ("Topology"). */
  label: string;
  panels: readonly string[];
  chosen: readonly number[];
  onChange: (chosen: number[]) => void;
  problem: string | null;
}) {
  const toggle = (i: number) => onChange(chosen.includes(i) ? chosen.filter((p) => p !== i) : [...chosen, i].sort((a, b) => a - b));
  return (
    <fieldset className={`field experiment-panels${problem ? ' has-error' : ''}`} aria-describedby={`${prefix}-panels-${problem ? 'error' : 'hint'}`}>
      <legend>{label}: panels to run</legend>
      <div className="row">
        {panels.map((p, i) => (
          <label key={p} className="check">
            <input type="checkbox" checked={chosen.includes(i)} onChange={() => toggle(i)} data-testid={`${prefix}-panel-${i}`} /> {p}
          </label>
        ))}
      </div>
      {problem ? (
        <div className="field-error" id={`${prefix}-panels-error`}>
          {problem}
        </div>
      ) : (
        <div className="hint" id={`${prefix}-panels-hint`}>
          Each {label.toLowerCase()} ticked runs all its configurations at every load and seed; bigger networks take much longer.
        </div>
      )}
    </fieldset>
  );
}
