// Scenario-wide settings: name, seed, timing, link and downstream buffers.
import { memo } from 'react';
import { setBufferBytes, setDrainRate, setLinkRate, type LinkLabScenario } from '../shared/edit';
import { NumberField } from '../form/fields';
import { ScenarioBasicsFields } from '../form/ScenarioBasicsFields';
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
        <ScenarioBasicsFields scenario={scenario} onEdit={onEdit} />
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
