// A network scenario's name, description, seed and simulated time.
import { NumberField, TextField } from '../form/fields';
import { setGeneral } from '../shared/edit';
import type { SectionProps } from './sectionProps';

export function BasicsSection({ scenario, onEdit }: SectionProps) {
  return (
    <div className="grid">
      <TextField
        className="span-all"
        path="name"
        label="Name"
        value={scenario.name}
        maxLength={200}
        onChange={(v) => onEdit((s) => setGeneral(s, 'name', v))}
      />
      <TextField
        className="span-all"
        path="description"
        label="Description"
        multiline
        value={scenario.description ?? ''}
        maxLength={10_000}
        onChange={(v) => onEdit((s) => setGeneral(s, 'description', v))}
      />
      <NumberField path="seed" label="Seed" value={scenario.seed} min={0} step={1} onChange={(v) => onEdit((s) => setGeneral(s, 'seed', v))} />
      <NumberField
        path="duration_us"
        label="Duration (µs)"
        value={scenario.duration_us}
        min={1}
        step={1}
        onChange={(v) => onEdit((s) => setGeneral(s, 'duration_us', v))}
      />
      <NumberField
        path="warmup_us"
        label="Warm-up (µs)"
        value={scenario.warmup_us}
        min={0}
        step={1}
        hint="Excluded from the statistics."
        onChange={(v) => onEdit((s) => setGeneral(s, 'warmup_us', v))}
      />
    </div>
  );
}
