// Earliest Deadline First: a relative deadline per class; the earliest absolute deadline goes.
import { MAX_DEADLINE_NS, MAX_PRIORITY } from './limits';
import { dropItem, largestPacket } from './maths';
import type { SchedulerUi } from './types';

export const edf: SchedulerUi<'edf'> = {
  kind: 'edf',
  label: 'EDF (Earliest Deadline First)',
  short: 'EDF',
  title: 'Earliest deadline first (EDF)',
  description: 'Gives each packet its class’s deadline after its arrival and sends the earliest.',
  convert({ priorities, shares, classes, rateGbps }) {
    const deadlines = classes.map((c, i) => {
      if (priorities) {
        // Higher priority, shorter deadline: 1 µs per rank below the top.
        const top = Math.max(...priorities);
        return Math.max(1, (top - (priorities[i] ?? 0) + 1) * 1000);
      }
      const share = shares[i] ?? 0;
      // Time to send the class's largest packet at its share of the link (bits / (Gb/s) = ns).
      const ns = share > 0 ? Math.ceil((largestPacket(c) * 8) / (share * rateGbps)) : 1_000_000;
      return Math.min(MAX_DEADLINE_NS, Math.max(1, ns));
    });
    return { kind: 'edf', deadlines_ns: deadlines };
  },
  withClassAdded: (config) => ({ ...config, deadlines_ns: [...config.deadlines_ns, 100_000] }),
  withClassRemoved: (config, i) => ({ ...config, deadlines_ns: dropItem(config.deadlines_ns, i) }),
  weights: () => null,
  sharesNote: 'EDF does not reserve bandwidth: classes share the link by deadline.',
  priorities(config, n) {
    // Shorter deadline = higher priority.
    const order = Array.from({ length: n }, (_, i) => i).sort(
      (a, b) => (config.deadlines_ns[a] ?? Infinity) - (config.deadlines_ns[b] ?? Infinity) || a - b,
    );
    const prio = new Array<number>(n).fill(0);
    order.forEach((cls, rank) => (prio[cls] = Math.max(0, Math.min(MAX_PRIORITY, n - 1 - rank))));
    return prio;
  },
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
