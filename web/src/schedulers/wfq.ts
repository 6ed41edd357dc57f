// Weighted Fair Queueing (packet-by-packet GPS): the smallest finish tag goes first.
import { fairQueueing } from './fairQueueing';

export const wfq = fairQueueing('wfq', {
  label: 'WFQ (Weighted Fair Queueing)',
  short: 'WFQ',
  title: 'Weighted Fair Queueing (WFQ)',
  description: 'Tags each head with its finish time under an ideal fluid (GPS) server and sends the smallest.',
  explain: ({ who, head, before, tagCompare }) =>
    `Of the heads that can go, ${who}’s has the smallest finish tag${tagCompare(before.finish_tags)}; ${head}`,
});
