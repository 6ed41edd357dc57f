// A network scenario's name, description, seed and simulated time.
import { ScenarioBasicsFields } from '../form/ScenarioBasicsFields';
import type { SectionProps } from './sectionProps';

export function BasicsSection({ scenario, onEdit }: SectionProps) {
  return (
    <div className="grid">
      <ScenarioBasicsFields scenario={scenario} onEdit={onEdit} />
    </div>
  );
}
