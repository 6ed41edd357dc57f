// Scenario-wide settings: name, seed, timing, link and downstream buffers.
import { memo } from 'react';
import { setBufferBytes, setDrainRate, setGeneral, setLinkRate, type LinkLabScenario } from '../shared/edit';
import { NumberField, TextField } from '../form/fields';
import type { Edit } from '../form/types';

interface Props {
  scenario: LinkLabScenario;
  onEdit: Edit;
}

export const GeneralEditor = memo(function GeneralEditor({ scenario, onEdit }: Props) {
  const lab = scenario.model;
  const credits = Number.isFinite(lab.downstream.buffer_bytes) ? Math.floor(lab.downstream.buffer_bytes / 64) : null;
  return (
    <fieldset className="card">
      <legend>General</legend>
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
        <NumberField
          path="seed"
          label="Seed"
          value={scenario.seed}
          min={0}
          step={1}
          onChange={(v) => onEdit((s) => setGeneral(s, 'seed', v))}
        />
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
        <NumberField
          path="model.link.rate_gbps"
          label="Link rate (Gb/s)"
          value={lab.link.rate_gbps}
          min={0}
          step={0.1}
          onChange={(v) => onEdit((s) => setLinkRate(s, v))}
        />
        <NumberField
          path="model.downstream.buffer_bytes"
          label="Buffer per class (B)"
          value={lab.downstream.buffer_bytes}
          min={64}
          step={64}
          hint={credits !== null ? `${credits} credits of 64 B` : undefined}
          onChange={(v) => onEdit((s) => setBufferBytes(s, v))}
        />
        <NumberField
          path="model.downstream.drain_rate_gbps"
          label="Drain rate (Gb/s)"
          value={lab.downstream.drain_rate_gbps}
          min={0}
          step={0.1}
          hint="Per class, downstream."
          onChange={(v) => onEdit((s) => setDrainRate(s, v))}
        />
      </div>
    </fieldset>
  );
});
