// WF²Q+: the smallest finish tag among the heads already eligible.
import { fairQueueing } from './fairQueueing';

export const wf2qPlus = fairQueueing('wf2q_plus', {
  label: 'WF²Q+ (Worst-case Fair WFQ+)',
  short: 'WF²Q+',
  title: 'WF²Q+',
  description: 'Of the heads whose start tag the virtual time has reached, sends the smallest finish tag.',
  explain: ({ who, head, before, tagCompare, formatValue }) =>
    `Of the heads already eligible (start tag at most the virtual time ${formatValue(before.virtual_time ?? 0)}) that can go, ${who}’s has the smallest finish tag${tagCompare(before.finish_tags)}; ${head}`,
});
