// Admission control of the connection classes (CBR, video): whether it is on, the cap on
// all of them together, and the fraction of every link each connection class may reserve.
import { NumberField, SelectField } from '../form/fields';
import { isConnectionClass, setAdmission, setAdmissionCap, setReserved } from './edit';
import type { SectionProps } from './sectionProps';

const PATH = 'model.admission';
const MODES = [
  { value: 'off', label: 'Off (every connection accepted)' },
  { value: 'on', label: 'On (reservations per link)' },
] as const;

export function AdmissionSection({ scenario, onEdit }: SectionProps) {
  const { admission, classes } = scenario.model;
  return (
    <div className="grid">
      <SelectField
        className="span-all"
        path={PATH}
        label="Admission control"
        value={admission ? 'on' : 'off'}
        options={MODES}
        onChange={(v) => onEdit((s) => setAdmission(s, v === 'on'))}
      />
      {admission ? (
        <>
          <NumberField
            path={`${PATH}.qos_cap`}
            label="Cap of all connection classes"
            value={admission.qos_cap}
            min={0}
            step={0.05}
            hint="Fraction of any link (1 = no cap beyond each class's own)."
            onChange={(v) => onEdit((s) => setAdmissionCap(s, v))}
          />
          {classes.map((c, i) =>
            isConnectionClass(c) ? (
              <NumberField
                key={i}
                path={`${PATH}.reserved[${i}]`}
                label={`${c.name || `Class ${i}`} may reserve`}
                value={admission.reserved[i] ?? Number.NaN}
                min={0}
                step={0.01}
                hint="Fraction of every link."
                onChange={(v) => onEdit((s) => setReserved(s, i, v))}
              />
            ) : null,
          )}
        </>
      ) : null}
    </div>
  );
}
