// Earliest Deadline First: a relative deadline per class; the earliest absolute deadline goes.
import { MAX_DEADLINE_NS } from './limits';
import { dropItem } from './maths';
import type { SchedulerUi } from './types';

export const edf: SchedulerUi<'edf'> = {
  kind: 'edf',
  label: 'EDF (Earliest Deadline First)',
  short: 'EDF',
  title: 'Earliest deadline first (EDF)',
  description: 'Gives each packet its class’s deadline after its arrival and sends the earliest.',
  withClassAdded: (config) => ({ ...config, deadlines_ns: [...config.deadlines_ns, 100_000] }),
  withClassRemoved: (config, i) => ({ ...config, deadlines_ns: dropItem(config.deadlines_ns, i) }),
  sharesNote: 'EDF does not reserve bandwidth: classes share the link by deadline.',
  perClass: {
    field: 'deadlines_ns',
    label: 'Deadline',
    unit: 'ns',
    short: 'deadline (ns)',
    help: 'Relative deadline of each class (1 ns to 10^12 ns): the packet with the earliest arrival + deadline goes first.',
    min: 1,
    max: MAX_DEADLINE_NS,
    step: 1,
    get: (config) => config.deadlines_ns,
    set: (config, values) => ({ ...config, deadlines_ns: values }),
  },
  editor: [{ part: 'per-class' }],
  animation: {
    glossary: [],
    explain: ({ who, head, before, trace, k, formatValue }) => {
      const d = before.deadlines_ns?.[trace.decisions[k]?.class ?? 0];
      return `${who}’s head has the earliest deadline${d == null ? '' : `, ${formatValue(d)} ns`}; ${head}`;
    },
  },
};
