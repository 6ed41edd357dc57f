// Self-Clocked Fair Queueing: the smallest finish tag goes first.
import { fairQueueing } from './fairQueueing';

export const scfq = fairQueueing('scfq', {
  label: 'SCFQ (Self-Clocked Fair Queueing)',
  short: 'SCFQ',
  title: 'Self-Clocked Fair Queueing (SCFQ)',
  description: 'Tags each head with a finish time on a self-clocked virtual time and sends the smallest.',
  explain: ({ who, head, before, tagCompare }) =>
    `Of the heads that can go, ${who}’s has the smallest finish tag${tagCompare(before.finish_tags)}; ${head}`,
});
