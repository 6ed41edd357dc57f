// A network scenario in the lab's editor column: the sections registered in sections.tsx,
// each with its fields and the engine's messages next to them. Run simulates it here.
import { memo } from 'react';
import type { Edit } from '../form/types';
import type { NetworkScenario } from './networkScenario';
import type { SectionProps } from './sectionProps';
import { NETWORK_SECTIONS } from './sections';
import './network.css';

/** The R2 study's address (registered in views.tsx). */
const R2_HASH = 'view=r2';

interface Props {
  scenario: NetworkScenario;
  onEdit: Edit;
  validate: SectionProps['validate'];
}

export const NetworkEditor = memo(function NetworkEditor({ scenario, onEdit, validate }: Props) {
  return (
    <div className="editor-body network-editor" data-testid="network-editor">
      <p className="help">
        A network of switches and end points. Edit it here and press Run for results per class; to compare schedulers over
        offered load, open the <a href={`#${R2_HASH}`}>Multimedia network (R2) view</a>.
      </p>
      {NETWORK_SECTIONS.map(({ id, title, Editor }) => (
        <section key={id} className="card network-section" aria-labelledby={id}>
          <h3 id={id}>{title}</h3>
          <Editor scenario={scenario} onEdit={onEdit} validate={validate} />
        </section>
      ))}
    </div>
  );
});
