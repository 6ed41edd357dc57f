// Strict priority: the highest-priority class with a packet that can go.
import { MAX_PRIORITY } from './limits';
import { dropItem } from './maths';
import type { SchedulerUi } from './types';

export const strictPriority: SchedulerUi<'strict_priority'> = {
  kind: 'strict_priority',
  label: 'Strict priority',
  short: 'Strict priority',
  title: 'Strict priority',
  description: 'Always sends the highest-priority class that has a packet; lower classes can starve.',
  withClassAdded: (config) => ({ ...config, priorities: [...config.priorities, 0] }),
  withClassRemoved: (config, i) => ({ ...config, priorities: dropItem(config.priorities, i) }),
  sharesNote: 'Strict priority does not reserve bandwidth: classes share the link by priority.',
  perClass: {
    field: 'priorities',
    label: 'Priority',
    unit: '0–255',
    short: 'priority',
    help: 'Higher priority sends first; equal priorities go to the lower class index. Lower classes can starve.',
    min: 0,
    max: MAX_PRIORITY,
    step: 1,
    get: (config) => config.priorities,
    set: (config, values) => ({ ...config, priorities: values }),
  },
  editor: [{ part: 'per-class' }],
  animation: {
    glossary: [],
    explain: ({ who, head }) => `${who} is the highest-priority class with a packet that can go; ${head}`,
  },
};
