// The routing select. Which routings the scenario format names comes from the generated
// types; which of them the engine accepts for this topology comes from the engine's own
// validation of the scenario with each routing, so a routing the engine starts to accept
// is offered without a change here.
import { useEffect, useRef, useState } from 'react';
import { FieldMessages } from '../form/fields';
import { useFieldErrors } from '../form/fieldErrors';
import { errorId, fieldId, fieldErrors } from '../shared/errors';
import { ROUTINGS, routingOf, setRouting, type RoutingKind } from './edit';
import type { SectionProps } from './sectionProps';

const PATH = 'model.routing';
const KINDS = Object.keys(ROUTINGS) as RoutingKind[];

/** The engine's answer for a topology: why it refuses each routing (absent: accepted), or that the topology itself is refused. */
export interface RoutingAnswer {
  refusals: ReadonlyMap<RoutingKind, string>;
  topologyRefused: boolean;
}

/** The engine's answer for the scenario's topology; null while it is asked. */
export function useRoutingAnswer(scenario: SectionProps['scenario'], validate: SectionProps['validate']): RoutingAnswer | null {
  // Only the topology decides: asked again when it changes, with the scenario as it is then.
  const topologyJson = JSON.stringify(scenario.model.topology);
  const [answer, setAnswer] = useState<{ key: string; answer: RoutingAnswer } | null>(null);
  const latest = useRef(scenario);
  useEffect(() => {
    latest.current = scenario;
  });
  useEffect(() => {
    let live = true;
    const base = latest.current;
    Promise.all(
      KINDS.map(async (kind) => {
        const errors = fieldErrors(await validate(JSON.stringify({ ...base, model: { ...base.model, routing: { kind } } })));
        const why = errors.filter((e) => e.path === PATH).map((e) => e.message);
        return { kind, why: why.join('; '), topologyRefused: errors.some((e) => e.path.startsWith('model.topology')) };
      }),
    ).then(
      (list) => {
        if (!live) return;
        const refusals = new Map(list.filter((a) => a.why !== '').map((a) => [a.kind, a.why] as const));
        setAnswer({ key: topologyJson, answer: { refusals, topologyRefused: list.some((a) => a.topologyRefused) } });
      },
      () => {
        // Without an answer every routing stays offered; the scenario's own validation still names a refused one.
      },
    );
    return () => {
      live = false;
    };
  }, [topologyJson, validate]);
  return answer?.key === topologyJson ? answer.answer : null;
}

/** What the hint under the select says about the engine's answer. */
function routingHint(answer: RoutingAnswer | null): string {
  if (answer === null) return 'Asking the engine which routings fit this topology…';
  if (answer.topologyRefused) return 'Which routings fit shows once the topology is valid.';
  const accepted = KINDS.filter((k) => !answer.refusals.has(k));
  if (accepted.length === 0) return 'The engine accepts no routing for this topology yet.';
  return `The engine accepts ${accepted.map((k) => ROUTINGS[k]).join(', ')} for this topology.`;
}

export function RoutingField({ scenario, onEdit, validate }: SectionProps) {
  const current = routingOf(scenario.model);
  const answer = useRoutingAnswer(scenario, validate);
  const messages = useFieldErrors(PATH);
  const id = fieldId(PATH);
  const hintId = `${id}-hint`;
  const describedBy = [messages.length > 0 ? errorId(PATH) : null, hintId].filter(Boolean).join(' ');
  const refused = (k: RoutingKind) => answer !== null && !answer.topologyRefused && answer.refusals.has(k);
  return (
    <div className={`field${messages.length > 0 ? ' has-error' : ''}`}>
      <label htmlFor={id}>Routing</label>
      <select
        id={id}
        value={current}
        aria-invalid={messages.length > 0 ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => {
          const kind = KINDS.find((k) => k === e.target.value);
          if (kind) onEdit((s) => setRouting(s, kind));
        }}
      >
        {KINDS.map((k) => (
          <option key={k} value={k}>
            {ROUTINGS[k]}
            {refused(k) ? ' — not for this network' : ''}
          </option>
        ))}
      </select>
      <div className="hint" id={hintId} data-testid="routing-hint">
        {routingHint(answer)}
      </div>
      <FieldMessages path={PATH} messages={messages} />
    </div>
  );
}
