// Start-time Fair Queueing: the smallest start tag goes first.
import { fairQueueing } from './fairQueueing';

export const sfq = fairQueueing('sfq', {
  label: 'SFQ (Start-time Fair Queueing)',
  short: 'SFQ',
  title: 'Start-time Fair Queueing (SFQ)',
  description: 'Tags each head with a start time and sends the smallest.',
  explain: ({ who, head, before, tagCompare }) =>
    `Of the heads that can go, ${who}’s has the smallest start tag${tagCompare(before.start_tags)}; ${head}`,
});
