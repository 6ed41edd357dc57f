// Deficit Table: (class, weight) entries cycled in order, with a deficit counter per class.
import { MAX_DTABLE_WEIGHT, MAX_TABLE_ENTRIES } from './limits';
import { largestPacketCredits, renumber } from './maths';
import type { SchedulerUi } from './types';

export const dtable: SchedulerUi<'dtable'> = {
  kind: 'dtable',
  label: 'DTable (Deficit Table)',
  short: 'DTable',
  title: 'Deficit Table (DTable)',
  description: 'Cycles a table of (class, weight) entries; a class owed credits when its entry was left keeps them as a deficit.',
  withClassAdded: (config, added, n) => ({
    ...config,
    table: [...config.table, { class: n, weight: Math.min(MAX_DTABLE_WEIGHT, Math.max(16, largestPacketCredits(added))) }],
  }),
  withClassRemoved: (config, i) => ({ ...config, table: renumber(config.table, i) }),
  sharesNote: 'Share of the weights.',
  tableClasses: (config) => config.table.map((e) => e.class),
  weightedTables: {
    get: (config, side) => (side === 'main' ? config.table : undefined),
    set: (config, side, entries) => (side === 'main' ? { ...config, table: entries } : config),
    limits: () => ({ maxEntries: MAX_TABLE_ENTRIES, minWeight: 1, maxWeight: MAX_DTABLE_WEIGHT }),
  },
  editor: [{ part: 'table', side: 'main' }, { part: 'fill' }],
  fill: {
    target: 'the table',
    maxEntries: MAX_TABLE_ENTRIES,
    entryWeight: { min: 1, max: MAX_DTABLE_WEIGHT, unit: 'credits' },
    current: (config) => ({ classes: config.table.map((e) => e.class), weight: config.table[0]?.weight }),
    apply: (config, list, weight) => ({ ...config, table: list.map((c) => ({ class: c, weight })) }),
  },
  animation: {
    deficitUnit: 'credits',
    glossary: ['entry', 'weight', 'accumulated', 'deficit'],
    explain({ before, after, who, packet, trace, k, pointer, weightOf, credits }) {
      const d = trace.decisions[k];
      const c = d?.class ?? 0;
      const sent = d?.credits ?? 0;
      const entry = pointer(after, 'main');
      const moved = entry !== pointer(before, 'main') || (d?.work.entries_visited ?? 0) > 0;
      if (moved) {
        const weight = weightOf('main', entry) ?? 0;
        const deficit = after.deficit?.[c] ?? 0;
        const start = deficit + weight;
        return `Entry ${entry} is the next entry whose class has a packet: it belongs to ${who}. ${who}’s deficit ${deficit} + the entry’s weight ${weight} = ${credits(start)} covers its head of ${packet}: send, ${start - sent} left`;
      }
      const start = before.accumulated ?? 0;
      return `Entry ${entry} stays with ${who}: the ${credits(start)} still accumulated cover its head of ${packet}: send, ${start - sent} left`;
    },
  },
};
