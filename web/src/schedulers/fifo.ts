// FIFO: packets in arrival order, whatever their class.
import type { SchedulerUi } from './types';

export const fifo: SchedulerUi<'fifo'> = {
  kind: 'fifo',
  label: 'FIFO (first come, first served)',
  short: 'FIFO',
  title: 'FIFO',
  description: 'Sends packets in arrival order, whatever their class.',
  withClassAdded: (config) => config,
  withClassRemoved: (config) => config,
  sharesNote: 'FIFO does not reserve bandwidth: classes share the link by arrival order.',
  editor: [{ part: 'note', text: 'FIFO sends packets in arrival order, whatever their class: nothing to configure.' }],
  animation: {
    glossary: [],
    explain: ({ who, head }) => `${who}’s head is the oldest packet waiting; ${head}`,
  },
};
