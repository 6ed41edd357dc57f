// Deficit Round Robin: a quantum of bytes per class and round.
import { MAX_QUANTUM_BYTES } from './limits';
import { dropItem, largestPacket } from './maths';
import type { SchedulerUi } from './types';

export const drr: SchedulerUi<'drr'> = {
  kind: 'drr',
  label: 'DRR (Deficit Round Robin)',
  short: 'DRR',
  title: 'Deficit Round Robin (DRR)',
  description: 'Visits the classes in turn; each may send its quantum of bytes per round, plus what it was owed.',
  withClassAdded: (config, added) => ({ ...config, quanta_bytes: [...config.quanta_bytes, largestPacket(added)] }),
  withClassRemoved: (config, i) => ({ ...config, quanta_bytes: dropItem(config.quanta_bytes, i) }),
  sharesNote: 'Share of the weights.',
  perClass: {
    field: 'quanta_bytes',
    label: 'Quantum',
    unit: 'bytes',
    short: 'quantum (B)',
    help: 'Bytes each class may send per round (1 to 16,777,216); shares follow the quanta. A quantum below the largest packet makes rounds longer.',
    min: 1,
    max: MAX_QUANTUM_BYTES,
    step: 1,
    get: (config) => config.quanta_bytes,
    set: (config, values) => ({ ...config, quanta_bytes: values }),
  },
  editor: [{ part: 'per-class' }],
  animation: {
    deficitUnit: 'B',
    roundRobin: true,
    glossary: ['deficit'],
    explain: ({ after, who, packet, trace, k }) => {
      const deficit = after.deficit?.[trace.decisions[k]?.class ?? 0];
      return `The round robin is at ${who}: its deficit (with its quantum added on its turn) covers its head of ${packet}${deficit === undefined ? '' : ` (${deficit} B left after it)`}`;
    },
  },
};
