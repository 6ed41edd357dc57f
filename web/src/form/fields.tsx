// Labelled inputs bound to one scenario field (by JSON path): each shows its own
// problems next to it, sets aria-invalid and points aria-describedby at the messages.
import { useId, useState, type ReactNode } from 'react';
import { errorId, fieldId } from '../shared/errors';
import { useFieldErrors } from './fieldErrors';

interface FieldShellProps {
  path: string;
  label: ReactNode;
  hint?: ReactNode;
  className?: string;
  children: (a11y: {
    id: string;
    'aria-invalid': true | undefined;
    'aria-describedby': string | undefined;
  }) => ReactNode;
}

/** Messages of the field at `path`, for aria-describedby. */
export function FieldMessages({ path, messages }: { path: string; messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <div className="field-error" id={errorId(path)}>
      {messages.map((m, i) => (
        <div key={i}>{m}</div>
      ))}
    </div>
  );
}

function FieldShell({ path, label, hint, className, children }: FieldShellProps) {
  const messages = useFieldErrors(path);
  const hintId = useId();
  const id = fieldId(path);
  const describedBy = [messages.length > 0 ? errorId(path) : null, hint ? hintId : null].filter(Boolean).join(' ');
  return (
    <div className={`field${className ? ` ${className}` : ''}${messages.length > 0 ? ' has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': messages.length > 0 ? true : undefined, 'aria-describedby': describedBy || undefined })}
      {hint ? (
        <div className="hint" id={hintId}>
          {hint}
        </div>
      ) : null}
      <FieldMessages path={path} messages={messages} />
    </div>
  );
}

/** Text of a number as an input shows it ("" for NaN). */
function show(n: number): string {
  return Number.isFinite(n) ? String(n) : '';
}

/** A number typed in an input: NaN when empty or unreadable (validation names the field). */
export function parseNumber(text: string): number {
  const t = text.trim();
  return t === '' ? Number.NaN : Number(t);
}

export interface NumberFieldProps {
  path: string;
  label: ReactNode;
  value: number;
  onChange: (value: number) => void;
  min?: number;
  max?: number;
  step?: number | 'any';
  hint?: ReactNode;
  className?: string;
}

/**
 * A number input that keeps what the user typed (e.g. "0." or an empty field) while the
 * scenario holds the parsed number; it follows the scenario when that changes elsewhere.
 */
export function NumberField({ path, label, value, onChange, min, max, step, hint, className }: NumberFieldProps) {
  const [draft, setDraft] = useState(() => show(value));
  const [seen, setSeen] = useState(value);
  if (!Object.is(seen, value)) {
    setSeen(value);
    if (!Object.is(parseNumber(draft), value)) setDraft(show(value));
  }
  return (
    <FieldShell path={path} label={label} hint={hint} className={className}>
      {(a11y) => (
        <input
          {...a11y}
          type="number"
          inputMode="decimal"
          value={draft}
          min={min}
          max={max}
          step={step}
          onChange={(e) => {
            setDraft(e.target.value);
            onChange(parseNumber(e.target.value));
          }}
        />
      )}
    </FieldShell>
  );
}

interface TextFieldProps {
  path: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  maxLength?: number;
  multiline?: boolean;
  hint?: ReactNode;
  className?: string;
}

export function TextField({ path, label, value, onChange, maxLength, multiline, hint, className }: TextFieldProps) {
  return (
    <FieldShell path={path} label={label} hint={hint} className={className}>
      {(a11y) =>
        multiline ? (
          <textarea {...a11y} value={value} maxLength={maxLength} rows={3} onChange={(e) => onChange(e.target.value)} />
        ) : (
          <input {...a11y} type="text" value={value} maxLength={maxLength} onChange={(e) => onChange(e.target.value)} />
        )
      }
    </FieldShell>
  );
}

interface SelectFieldProps<T extends string> {
  path: string;
  label: ReactNode;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  hint?: ReactNode;
  className?: string;
}

export function SelectField<T extends string>({ path, label, value, options, onChange, hint, className }: SelectFieldProps<T>) {
  return (
    <FieldShell path={path} label={label} hint={hint} className={className}>
      {(a11y) => (
        <select
          {...a11y}
          value={value}
          onChange={(e) => {
            const picked = options.find((o) => o.value === e.target.value);
            if (picked) onChange(picked.value);
          }}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FieldShell>
  );
}
