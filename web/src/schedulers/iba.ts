// InfiniBand VLArb: a high and a low table of (VL, weight) entries and the high limit.
import { IBA_MAX, IBA_MAX_ENTRIES } from './limits';
import { largestPacketCredits, renumber } from './maths';
import type { SchedulerUi } from './types';

const WEIGHT_HELP = 'weight 0 to 255 in 64-byte units (0 = entry skipped)';

export const iba: SchedulerUi<'iba'> = {
  kind: 'iba',
  label: 'IBA weighted tables (InfiniBand VLArb)',
  short: 'IBA',
  title: 'InfiniBand VLArb (high and low tables)',
  description: 'Serves the high table first, up to its high limit, then the low table; each entry may send its weight in 64-byte units.',
  withClassAdded: (config, added, n) => ({
    ...config,
    low: [...config.low, { class: n, weight: Math.min(IBA_MAX, largestPacketCredits(added)) }],
  }),
  withClassRemoved: (config, i) => ({ ...config, high: renumber(config.high, i), low: renumber(config.low, i) }),
  sharesNote: 'Share of the weights of both tables (the high table also goes first, up to its limit).',
  tableClasses: (config) => [...config.high, ...config.low].map((e) => e.class),
  weightedTables: {
    get: (config, side) => (side === 'main' ? undefined : config[side]),
    set: (config, side, entries) => (side === 'main' ? config : { ...config, [side]: entries }),
    limits: () => ({ maxEntries: IBA_MAX_ENTRIES, minWeight: 0, maxWeight: IBA_MAX }),
  },
  editor: [
    {
      part: 'number',
      field: 'high_limit',
      label: 'High limit (4096-byte units)',
      hint: '0 to 255: bytes the high table may send while low packets wait; 255 = unbounded.',
      min: 0,
      max: IBA_MAX,
      step: 1,
      get: (config) => config.high_limit,
      set: (config, v) => ({ ...config, high_limit: v }),
    },
    {
      part: 'table',
      side: 'high',
      legend: 'IBA high-priority table',
      help: `Served first. Entries are cycled in order; ${WEIGHT_HELP}; at most ${IBA_MAX_ENTRIES} entries.`,
    },
    {
      part: 'table',
      side: 'low',
      legend: 'IBA low-priority table',
      help: 'Served when the high table has nothing to send or its high limit is used up. Weights 0 to 255 (64-byte units).',
    },
    { part: 'fill' },
  ],
  fill: {
    target: 'the low table',
    maxEntries: IBA_MAX_ENTRIES,
    entryWeight: { min: 0, max: IBA_MAX, unit: '64 B units' },
    current: (config) => ({ classes: config.low.map((e) => e.class), weight: config.low[0]?.weight }),
    apply: (config, list, weight) => ({ ...config, low: list.map((c) => ({ class: c, weight })) }),
  },
  animation: {
    glossary: ['entry', 'weight', 'remaining-weight', 'high-limit'],
    explain({ after, who, head, pointer, weightOf }) {
      const side = after.table ?? 'low';
      const entry = pointer(after, side);
      const weight = weightOf(side, entry);
      const limit = after.high_limit_bytes;
      const used = after.high_limit_used ?? 0;
      const limitText = limit === undefined ? 'the high table is unbounded' : `${used} of the high limit’s ${limit} B used`;
      const rem = after.remaining_weight ?? 0;
      const left = rem >= 0 ? `${rem} × 64 B left after this packet` : `this packet overshoots it by ${-rem} × 64 B: a packet may start while any weight is left`;
      const w = weight === undefined ? '' : ` (weight ${weight} × 64 B; ${left})`;
      return side === 'high'
        ? `High table entry ${entry} belongs to ${who}${w}: the high table goes first while its limit allows (${limitText}); ${head}`
        : `Low table entry ${entry} belongs to ${who}${w}: the high table had no packet that could go, or had used its limit (${limitText}); ${head}`;
    },
  },
};
