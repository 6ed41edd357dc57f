// What every section of the network editor is drawn with (see sections.tsx).
import type { Engine } from '../engine/client';
import type { Edit } from '../form/types';
import type { NetworkScenario } from './networkScenario';

/** What every section is drawn with. */
export interface SectionProps {
  scenario: NetworkScenario;
  onEdit: Edit;
  /** The engine's validation, for choices that only the engine can judge (e.g. which routings fit the topology). */
  validate: Engine['validate'];
}
