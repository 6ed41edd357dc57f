// Why a decision was taken, in one sentence: for tables the entry, its class and the
// deficit plus weight against the head's size; for IBA the table served and the high
// limit; for fair queueing the tags compared; for every scheduler the downstream credits.
// A pure function of the engine's trace (the registers before and after the decision).
import type { Trace } from '../generated';
import { formatValue, pointerOf, registersBefore, tableLayout } from './model';

const name = (trace: Trace, c: number) => trace.classes[c]?.name ?? `class ${c}`;
const credits = (n: number) => `${n} ${n === 1 ? 'credit' : 'credits'}`;

/**
 * How the sender's head tag compares: "11.5, against B 14 and C 20 (D is blocked by credits)".
 * Competitors are the other classes whose head fits the free credits; tags are the heads'
 * before the decision (a head that arrived since has none recorded and is not listed).
 */
function tagCompare(trace: Trace, k: number, tags: readonly (number | null)[] | undefined): string {
  const d = trace.decisions[k];
  if (!d) return '';
  const fits = (c: number) => {
    const head = d.queues[c]?.[0];
    return head !== undefined && Math.ceil(head / 64) <= (d.free_credits[c] ?? 0);
  };
  const own = tags?.[d.class];
  const others = trace.classes
    .map((_, c) => c)
    .filter((c) => c !== d.class && (d.queues[c]?.length ?? 0) > 0);
  const compared = others.filter((c) => fits(c) && tags?.[c] != null).map((c) => `${name(trace, c)} ${formatValue(tags?.[c] ?? 0)}`);
  const blocked = others.filter((c) => !fits(c)).map((c) => name(trace, c));
  const ownText = own == null ? '' : ` ${formatValue(own)}`;
  const against = compared.length > 0 ? `, against ${compared.join(', ')}` : ', no other head could go';
  const blockedText = blocked.length > 0 ? ` (${blocked.join(', ')} ${blocked.length === 1 ? 'is' : 'are'} blocked by credits)` : '';
  return `${ownText}${against}${blockedText}`;
}

/** The sentence explaining decision `k` of `trace` (empty when out of range). */
export function explainDecision(trace: Trace, k: number): string {
  const d = trace.decisions[k];
  if (!d) return '';
  const before = registersBefore(trace, k);
  const after = d.registers;
  const c = d.class;
  const who = name(trace, c);
  const packet = `${d.bytes} B (${credits(d.credits)})`;
  const head = `the packet is ${packet}`;
  const free = d.free_credits[c];
  const flow = free === undefined ? '' : `; ${free} downstream ${free === 1 ? 'credit is' : 'credits are'} free, enough for it`;
  const tables = tableLayout(trace);
  const weightOf = (side: 'main' | 'high' | 'low', entry: number | null) =>
    entry === null ? undefined : tables.find((t) => t.side === side)?.entries.find((e) => e.index === entry)?.weight;
  let why: string;
  switch (trace.scheduler) {
    case 'dtable': {
      const entry = pointerOf(after, 'main');
      const moved = entry !== pointerOf(before, 'main') || d.work.entries_visited > 0;
      const weight = weightOf('main', entry) ?? 0;
      if (moved) {
        const deficit = after.deficit?.[c] ?? 0;
        const start = deficit + weight;
        why = `Entry ${entry} is the next entry whose class has a packet: it belongs to ${who}. ${who}’s deficit ${deficit} + the entry’s weight ${weight} = ${credits(start)} covers its head of ${packet}: send, ${start - d.credits} left`;
      } else {
        const start = before.accumulated ?? 0;
        why = `Entry ${entry} stays with ${who}: the ${credits(start)} still accumulated cover its head of ${packet}: send, ${start - d.credits} left`;
      }
      break;
    }
    case 'as_basic': {
      const entry = pointerOf(after, 'main');
      why = `Entry ${entry} is the next entry whose class has a packet: it belongs to ${who}, and an entry sends one whole packet whatever its size (${packet})`;
      break;
    }
    case 'iba': {
      const side = after.table ?? 'low';
      const entry = pointerOf(after, side);
      const weight = weightOf(side, entry);
      const limit = after.high_limit_bytes;
      const used = after.high_limit_used ?? 0;
      const limitText = limit === undefined ? 'the high table is unbounded' : `${used} of the high limit’s ${limit} B used`;
      const rem = after.remaining_weight ?? 0;
      const left = rem >= 0 ? `${rem} × 64 B left after this packet` : `this packet overshoots it by ${-rem} × 64 B: a packet may start while any weight is left`;
      const w = weight === undefined ? '' : ` (weight ${weight} × 64 B; ${left})`;
      why =
        side === 'high'
          ? `High table entry ${entry} belongs to ${who}${w}: the high table goes first while its limit allows (${limitText}); ${head}`
          : `Low table entry ${entry} belongs to ${who}${w}: the high table had no packet that could go, or had used its limit (${limitText}); ${head}`;
      break;
    }
    case 'drr': {
      const deficit = after.deficit?.[c];
      why = `The round robin is at ${who}: its deficit (with its quantum added on its turn) covers its head of ${packet}${deficit === undefined ? '' : ` (${deficit} B left after it)`}`;
      break;
    }
    case 'scfq':
    case 'wfq':
      why = `Of the heads that can go, ${who}’s has the smallest finish tag${tagCompare(trace, k, before.finish_tags)}; ${head}`;
      break;
    case 'sfq':
      why = `Of the heads that can go, ${who}’s has the smallest start tag${tagCompare(trace, k, before.start_tags)}; ${head}`;
      break;
    case 'wf2q_plus':
      why = `Of the heads already eligible (start tag at most the virtual time ${formatValue(before.virtual_time ?? 0)}) that can go, ${who}’s has the smallest finish tag${tagCompare(trace, k, before.finish_tags)}; ${head}`;
      break;
    case 'strict_priority':
      why = `${who} is the highest-priority class with a packet that can go; ${head}`;
      break;
    case 'edf':
      why = `${who}’s head has the earliest deadline${before.deadlines_ns?.[c] == null ? '' : `, ${formatValue(before.deadlines_ns[c] ?? 0)} ns`}; ${head}`;
      break;
    case 'fifo':
      why = `${who}’s head is the oldest packet waiting; ${head}`;
      break;
    default:
      why = `${who} was chosen; ${head}`;
  }
  return `${why}${flow}.`;
}

/** The registers the figure shows, in words (the glossary next to the animation). */
export const GLOSSARY: readonly { term: string; text: string; schedulers: readonly string[] }[] = [
  { term: 'Entry (table pointer)', text: 'The table entry being served; the pointer moves to the next entry whose class has a packet.', schedulers: ['dtable', 'as_basic', 'iba'] },
  { term: 'Weight', text: 'What one visit of an entry may send: credits of 64 B for DTable, units of 64 B for InfiniBand; the AS basic table sends one packet per entry.', schedulers: ['dtable', 'iba'] },
  { term: 'Accumulated', text: 'DTable: what the selected entry may still send, in credits: the class’s deficit plus the entry’s weight when the entry is selected, minus every packet sent.', schedulers: ['dtable'] },
  { term: 'Deficit', text: 'What a class was owed when its entry was left (its head did not fit): added to its next entry’s weight. DTable counts credits, DRR bytes. A class that empties forfeits it.', schedulers: ['dtable', 'drr'] },
  { term: 'Remaining weight', text: 'InfiniBand: the weight left in the selected entry, in 64-byte units.', schedulers: ['iba'] },
  { term: 'High limit', text: 'InfiniBand: how many bytes the high table may send before the low table gets an opportunity (high_limit × 4096 B).', schedulers: ['iba'] },
  { term: 'Start and finish tags', text: 'Fair queueing: the virtual times at which a head packet starts and finishes service; the scheduler serves the smallest (finish for SCFQ and WFQ, start for SFQ, finish among eligible heads for WF²Q+).', schedulers: ['scfq', 'wfq', 'sfq', 'wf2q_plus'] },
  { term: 'Virtual time', text: 'Fair queueing: the clock the tags are compared against.', schedulers: ['scfq', 'wfq', 'sfq', 'wf2q_plus'] },
  { term: 'Credits', text: 'Flow control: free space in the next buffer, in 64-byte credits. A class whose head needs more credits than are free cannot be chosen.', schedulers: [] },
];

/** The glossary entries for a scheduler (credits always). */
export function glossaryFor(kind: string) {
  return GLOSSARY.filter((g) => g.schedulers.length === 0 || g.schedulers.includes(kind));
}
