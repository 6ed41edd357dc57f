// The classes of a network: one card each, and adding one (at most the engine's class
// limit, which validation reports next to the list).
import { flushSync } from 'react-dom';
import { FieldMessages } from '../form/fields';
import { useFieldErrors } from '../form/fieldErrors';
import { fieldId } from '../shared/errors';
import { addNetworkClass } from './edit';
import { NetworkClassCard } from './NetworkClassCard';
import type { SectionProps } from './sectionProps';

export function NetworkClassesSection({ scenario, onEdit }: SectionProps) {
  const classes = scenario.model.classes;
  const messages = useFieldErrors('model.classes');
  return (
    <div id={fieldId('model.classes')} tabIndex={-1}>
      <p className="note">
        Every end point offers every class&apos;s traffic; the results are per class (service level). Loads are per end point, as a
        fraction of the link rate.
      </p>
      <FieldMessages path="model.classes" messages={messages} />
      {classes.map((c, i) => (
        <NetworkClassCard key={i} index={i} cls={c} canRemove={classes.length > 1} onEdit={onEdit} />
      ))}
      <div className="row">
        <button
          type="button"
          onClick={() => {
            flushSync(() => onEdit(addNetworkClass));
            document.getElementById(fieldId(`model.classes[${classes.length}].name`))?.focus();
          }}
        >
          Add class
        </button>
      </div>
    </div>
  );
}
