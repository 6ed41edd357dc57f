// The fields every scenario has, whatever its model: name, description, seed, simulated
// time and warm-up. The link lab's General card and the network editor's Basics section
// both draw them with this.
import type { Scenario } from '../generated';
import { setBasic, type BasicField } from './basics';
import { NumberField, TextField } from './fields';
import type { Edit } from './types';

interface Props {
  scenario: Scenario;
  onEdit: Edit;
}

export function ScenarioBasicsFields({ scenario, onEdit }: Props) {
  const set =
    <K extends BasicField>(field: K) =>
    (value: Scenario[K]) =>
      onEdit((s) => setBasic(s, field, value));
  return (
    <>
      <TextField className="span-all" path="name" label="Name" value={scenario.name} maxLength={200} onChange={set('name')} />
      <TextField
        className="span-all"
        path="description"
        label="Description"
        multiline
        value={scenario.description ?? ''}
        maxLength={10_000}
        onChange={set('description')}
      />
      <NumberField path="seed" label="Seed" value={scenario.seed} min={0} step={1} onChange={set('seed')} />
      <NumberField path="duration_us" label="Duration (µs)" value={scenario.duration_us} min={1} step={1} onChange={set('duration_us')} />
      <NumberField
        path="warmup_us"
        label="Warm-up (µs)"
        value={scenario.warmup_us}
        min={0}
        step={1}
        hint="Excluded from the statistics."
        onChange={set('warmup_us')}
      />
    </>
  );
}
