// What the fair-queueing kinds (one relative weight per class) have in common; each kind's
// module (scfq.ts, wfq.ts, wf2qPlus.ts, sfq.ts) adds its names and its sentence.
import type { FairQueueingConfig } from '../generated';
import { dropItem } from './maths';
import type { ConfigOf, ExplainContext, SchedulerKind, SchedulerUi } from './types';

/** The kinds whose configuration is a `FairQueueingConfig`. */
type FairKind = { [K in SchedulerKind]: ConfigOf<K> extends FairQueueingConfig ? K : never }[SchedulerKind];

/** Names and sentence of one fair-queueing kind. */
export interface FairTexts {
  label: string;
  short: string;
  title: string;
  description: string;
  explain(ctx: ExplainContext): string;
}

/** The scheduler UI of fair-queueing kind `kind`. */
export function fairQueueing<K extends FairKind>(kind: K, texts: FairTexts): SchedulerUi<K> {
  const ui: SchedulerUi<FairKind> = {
    kind,
    ...texts,
    withClassAdded(config) {
      const w = config.weights.filter((x) => Number.isFinite(x) && x > 0);
      return { ...config, weights: [...config.weights, w.length > 0 ? Math.min(...w) : 1] };
    },
    withClassRemoved: (config, i) => ({ ...config, weights: dropItem(config.weights, i) }),
    sharesNote: 'Share of the weights.',
    perClass: {
      field: 'weights',
      label: 'Weight',
      unit: 'relative',
      short: 'weight',
      help: 'Relative weight of each class (above 0); share = weight ÷ all weights.',
      min: 0,
      max: 1e9,
      step: 'any',
      get: (config) => config.weights,
      set: (config, values) => ({ ...config, weights: values }),
    },
    editor: [{ part: 'per-class' }],
    animation: { glossary: ['tags', 'virtual-time'], explain: texts.explain },
  };
  // Every function above keeps `kind` and only touches `weights`, so the result is of kind K.
  return ui as unknown as SchedulerUi<K>;
}
