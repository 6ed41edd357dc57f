// The requirements form: technology, table size, GMTU, w and k (blank = search), link
// rate, and per class name, latency (distance), wanted share and MTU. Every problem the
// engine (or the form) reports is shown next to the field its path names.
import type { ReactNode } from 'react';
import type { Technology } from '../generated';
import type { ErrorsByPath } from '../shared/errors';
import { LATENCY_DISTANCES, TECHNOLOGIES, latencyChoice, newClass, type ClassForm, type DesignForm } from './model';

interface Props {
  form: DesignForm;
  onChange: (form: DesignForm) => void;
  errors: ErrorsByPath;
  onLoadVector: () => void;
  /** Loads the requirements of the R3 study's table (`public/designs/r3-table.json`). */
  onLoadR3?: () => void;
}

/** DOM id of the input for a requirements path. */
export function designFieldId(path: string): string {
  return `dreq-${path.replace(/[[\].]/g, '-')}`;
}

function Messages({ path, errors }: { path: string; errors: ErrorsByPath }) {
  const list = errors.get(path) ?? [];
  if (list.length === 0) return null;
  return (
    <div className="field-error" id={`${designFieldId(path)}-error`} data-testid={`design-error-${path}`}>
      {list.map((m, i) => (
        <div key={i}>{m}</div>
      ))}
    </div>
  );
}

/** aria props of the input at `path`. */
function a11y(path: string, errors: ErrorsByPath, hintId?: string) {
  const bad = (errors.get(path) ?? []).length > 0;
  const describedBy = [bad ? `${designFieldId(path)}-error` : null, hintId ?? null].filter(Boolean).join(' ');
  return { id: designFieldId(path), 'aria-invalid': bad ? true : undefined, 'aria-describedby': describedBy || undefined };
}

function Field({ path, label, hint, errors, children }: { path: string; label: string; hint?: string; errors: ErrorsByPath; children: ReactNode }) {
  const bad = (errors.get(path) ?? []).length > 0;
  return (
    <div className={`field${bad ? ' has-error' : ''}`}>
      <label htmlFor={designFieldId(path)}>{label}</label>
      {children}
      {hint ? (
        <div className="hint" id={`${designFieldId(path)}-hint`}>
          {hint}
        </div>
      ) : null}
      <Messages path={path} errors={errors} />
    </div>
  );
}

export function RequirementsForm({ form, onChange, errors, onLoadVector, onLoadR3 }: Props) {
  const set = (patch: Partial<DesignForm>) => onChange({ ...form, ...patch });
  const setClass = (i: number, patch: Partial<ClassForm>) =>
    onChange({ ...form, classes: form.classes.map((c, j) => (j === i ? { ...c, ...patch } : c)) });
  const text = (path: string, key: 'entries' | 'gmtu' | 'w' | 'k' | 'linkRate', label: string, hint?: string) => (
    <Field path={path} label={label} hint={hint} errors={errors}>
      <input
        type="text"
        inputMode="decimal"
        value={form[key]}
        onChange={(e) => set({ [key]: e.target.value } as Partial<DesignForm>)}
        {...a11y(path, errors, hint ? `${designFieldId(path)}-hint` : undefined)}
      />
    </Field>
  );
  const classErrors = (i: number) =>
    ['name', 'distance', 'share', 'mtu_bytes'].flatMap((k) => errors.get(`classes[${i}].${k}`) ?? []).length +
    (errors.get(`classes[${i}]`) ?? []).length;

  return (
    <fieldset className="design-requirements">
      <legend>Requirements</legend>
      <div className="design-general">
        <Field path="technology" label="Technology" errors={errors}>
          <select value={form.technology} onChange={(e) => set({ technology: e.target.value as Technology })} {...a11y('technology', errors)}>
            {TECHNOLOGIES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </Field>
        {text('entries', 'entries', 'Entries N')}
        {text('gmtu_bytes', 'gmtu', 'GMTU (bytes)')}
        {text('w', 'w', 'w', 'blank = search')}
        {text('k', 'k', 'k', 'blank = search')}
        {text('link_rate_gbps', 'linkRate', 'Link rate (Gb/s)')}
        {form.technology === 'omnipath' ? (
          <Field path="switch_ports" label="Switch ports" hint="blank = 48 (Omni-Path reference switch)" errors={errors}>
            <input
              type="text"
              inputMode="numeric"
              value={form.switchPorts ?? ''}
              onChange={(e) => set({ switchPorts: e.target.value })}
              {...a11y('switch_ports', errors, `${designFieldId('switch_ports')}-hint`)}
            />
          </Field>
        ) : null}
      </div>
      <Messages path="" errors={errors} />
      <Messages path="classes" errors={errors} />
      <table className="design-classes">
        <caption className="visually-hidden">Classes</caption>
        <thead>
          <tr>
            <th scope="col">Class</th>
            <th scope="col">Latency class</th>
            <th scope="col">Distance</th>
            <th scope="col">Wanted share (0–1)</th>
            <th scope="col">MTU (bytes)</th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {form.classes.map((c, i) => {
            const label = c.name.trim() === '' ? `class ${i + 1}` : c.name;
            const cell = (path: string, key: 'name' | 'distance' | 'share' | 'mtu', aria: string, heading: string) => (
              <td className={(errors.get(path) ?? []).length > 0 ? 'has-error' : undefined} data-label={heading}>
                <input
                  type="text"
                  inputMode={key === 'name' ? 'text' : 'decimal'}
                  value={c[key]}
                  aria-label={aria}
                  onChange={(e) => setClass(i, { [key]: e.target.value })}
                  {...a11y(path, errors)}
                />
                <Messages path={path} errors={errors} />
              </td>
            );
            return (
              <tr key={i} className={classErrors(i) > 0 ? 'has-error' : undefined}>
                {cell(`classes[${i}].name`, 'name', `Class ${i + 1} name`, 'Class')}
                <td data-label="Latency class">
                  <select
                    aria-label={`${label} latency class`}
                    value={latencyChoice(c.distance)}
                    onChange={(e) => {
                      const v = e.target.value;
                      if (v === 'none') setClass(i, { distance: '' });
                      else if (v !== 'other') setClass(i, { distance: v });
                    }}
                  >
                    <option value="none">none (free entries)</option>
                    {LATENCY_DISTANCES.map((d, k) => (
                      <option key={d} value={String(d)}>
                        {`${k + 1}: distance ${d}`}
                      </option>
                    ))}
                    <option value="other" disabled>
                      other distance
                    </option>
                  </select>
                  <Messages path={`classes[${i}]`} errors={errors} />
                </td>
                {cell(`classes[${i}].distance`, 'distance', `${label} distance`, 'Distance')}
                {cell(`classes[${i}].share`, 'share', `${label} wanted share`, 'Wanted share (0–1)')}
                {cell(`classes[${i}].mtu_bytes`, 'mtu', `${label} MTU`, 'MTU (bytes)')}
                <td className="design-remove">
                  <button
                    type="button"
                    className="small danger"
                    aria-label={`Remove ${label}`}
                    disabled={form.classes.length <= 1}
                    onClick={() => onChange({ ...form, classes: form.classes.filter((_, j) => j !== i) })}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="design-form-actions">
        <button type="button" onClick={() => onChange({ ...form, classes: [...form.classes, newClass(form)] })}>
          Add class
        </button>
        <button type="button" onClick={onLoadVector}>
          Load the multimedia vector
        </button>
        {onLoadR3 ? (
          <button type="button" onClick={onLoadR3}>
            Load the R3 table requirements
          </button>
        ) : null}
      </div>
    </fieldset>
  );
}
