// Advanced Switching basic table: each entry names a class (VC), which sends one packet.
import { AS_TABLE_SIZES } from './limits';
import type { SchedulerUi } from './types';

export const asBasic: SchedulerUi<'as_basic'> = {
  kind: 'as_basic',
  label: 'AS basic table (Advanced Switching)',
  short: 'AS basic',
  title: 'AS basic table',
  description: 'Cycles a table of classes; each entry sends one whole packet of its class, whatever its size.',
  withClassAdded(config, _added, n) {
    // Keep the size: the class with the most entries gives its last one to the new class.
    const counts = new Map<number, number>();
    for (const c of config.table) counts.set(c, (counts.get(c) ?? 0) + 1);
    let donor = -1;
    let most = 1;
    for (const [c, k] of counts) if (k > most || (k === most && donor >= 0 && c < donor)) [donor, most] = [c, k];
    if (donor < 0) return config;
    const at = config.table.lastIndexOf(donor);
    return { ...config, table: config.table.map((c, j) => (j === at ? n : c)) };
  },
  withClassRemoved(config, i, n) {
    // Keep the size: the removed class's entries go to the remaining classes in turn.
    const left = n - 1;
    let turn = 0;
    return {
      ...config,
      table: config.table.map((c) => {
        if (c < i) return c;
        if (c > i) return c - 1;
        return left > 0 ? turn++ % left : 0;
      }),
    };
  },
  sharesNote: 'Share of bytes expected from the entries × each class’s mean packet size (one packet per entry).',
  tableClasses: (config) => config.table,
  editor: [
    {
      part: 'class-table',
      field: 'table',
      legend: 'AS basic arbitration table',
      help: 'Entries are cycled in order; each sends one packet of its class (VC), whatever its size, so a class’s byte share grows with its packet size.',
      entryName: 'AS entry',
      sizes: AS_TABLE_SIZES,
      get: (config) => config.table,
      set: (config, table) => ({ ...config, table }),
    },
    { part: 'fill' },
  ],
  fill: {
    target: 'the table',
    maxEntries: AS_TABLE_SIZES[AS_TABLE_SIZES.length - 1] ?? 1024,
    totals: { sizes: AS_TABLE_SIZES, subject: 'An AS basic table' },
    current: (config) => ({ classes: config.table }),
    apply: (config, list) => ({ ...config, table: [...list] }),
  },
  animation: {
    glossary: ['entry'],
    explain: ({ after, who, packet, pointer }) =>
      `Entry ${pointer(after, 'main')} is the next entry whose class has a packet: it belongs to ${who}, and an entry sends one whole packet whatever its size (${packet})`,
  },
};
