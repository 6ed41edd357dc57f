// Lanes: which lane (VL, VC) each class (SL) takes at a switch port, and how a switch
// input buffer's space is split among the lanes.
import { FieldMessages, NumberField, SelectField } from '../form/fields';
import { useFieldErrors } from '../form/fieldErrors';
import type { CreditPolicyConfig } from '../generated';
import { fieldId } from '../shared/errors';
import { LANE_MAPS, laneListsOf, setCreditPolicy, setLaneList, setLaneMapKind, setSharedCredits, type LaneList, type LaneMapKind } from './lanes';
import type { SectionProps } from './sectionProps';

const PATH = 'model.lanes';
const MAPS = (Object.keys(LANE_MAPS) as LaneMapKind[]).map((k) => ({ value: k, label: LANE_MAPS[k].label }));
const POLICIES: readonly { value: CreditPolicyConfig['kind']; label: string }[] = [
  { value: 'per_lane', label: 'Per lane (each lane its own buffer)' },
  { value: 'shared', label: 'Shared (a minimum and a maximum per lane)' },
];

export function LanesSection({ scenario, onEdit }: SectionProps) {
  const net = scenario.model;
  const map = net.lanes?.map ?? { kind: 'identity' as const };
  const credits = net.lanes?.credits ?? { kind: 'per_lane' as const };
  return (
    <>
      <p className="note">
        Statistics stay per class (SL). A routing that needs lanes of its own multiplies them (dimension order keeps two per
        lane for its dateline).
      </p>
      <div className="grid">
        <SelectField
          className="span-all"
          path={`${PATH}.map`}
          label="Lane map"
          value={map.kind}
          options={MAPS}
          hint={LANE_MAPS[map.kind].hint}
          onChange={(k) => onEdit((s) => setLaneMapKind(s, k))}
        />
      </div>
      {laneListsOf(map, net.classes).map((list) => (
        <LaneListFields key={list.field} list={list} onEdit={onEdit} />
      ))}
      <div className="grid">
        <SelectField
          className="span-all"
          path={`${PATH}.credits`}
          label="Credits of a switch input buffer"
          value={credits.kind}
          options={POLICIES}
          onChange={(k) => onEdit((s) => setCreditPolicy(s, k))}
        />
        {credits.kind === 'shared' ? (
          <>
            <NumberField
              path={`${PATH}.credits.min_bytes`}
              label="Reserved per lane (B)"
              value={credits.min_bytes}
              min={64}
              step={64}
              onChange={(v) => onEdit((s) => setSharedCredits(s, { min_bytes: v }))}
            />
            <NumberField
              path={`${PATH}.credits.max_bytes`}
              label="Most one lane may hold (B)"
              value={credits.max_bytes}
              min={64}
              step={64}
              onChange={(v) => onEdit((s) => setSharedCredits(s, { max_bytes: v }))}
            />
          </>
        ) : null}
      </div>
    </>
  );
}

/** One table of the lane map: an entry per SL (or SC), and the messages about the table as a whole. */
function LaneListFields({ list, onEdit }: { list: LaneList; onEdit: SectionProps['onEdit'] }) {
  const path = `${PATH}.map.${list.field}`;
  const messages = useFieldErrors(path);
  return (
    <fieldset className={`card${messages.length > 0 ? ' has-error' : ''}`} id={fieldId(path)} tabIndex={-1}>
      <legend>{list.title}</legend>
      <FieldMessages path={path} messages={messages} />
      <div className="grid">
        {list.values.map((v, i) => (
          <NumberField
            key={i}
            path={`${path}[${i}]`}
            label={list.label(i)}
            value={v}
            min={0}
            step={1}
            onChange={(x) => onEdit((s) => setLaneList(s, list.field, i, x))}
          />
        ))}
      </div>
    </fieldset>
  );
}
