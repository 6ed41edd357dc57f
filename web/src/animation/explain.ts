// Why a decision was taken, in one sentence: for tables the entry, its class and the
// deficit plus weight against the head's size; for IBA the table served and the high
// limit; for fair queueing the tags compared; for every scheduler the downstream credits.
// A pure function of the engine's trace (the registers before and after the decision).
import type { Trace } from '../generated';
import { lookupScheduler } from '../schedulers/registry';
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
  const ui = lookupScheduler(trace.scheduler);
  const why = ui
    ? ui.animation.explain({
        trace,
        k,
        before,
        after,
        who,
        packet,
        head,
        pointer: pointerOf,
        weightOf,
        tagCompare: (tags) => tagCompare(trace, k, tags),
        formatValue,
        credits,
      })
    : `${who} was chosen; ${head}`;
  return `${why}${flow}.`;
}

/**
 * The registers the figure shows, in words (the glossary next to the animation). Each
 * scheduler module lists the ids it uses (`animation.glossary`); credits are always shown.
 */
export const GLOSSARY: readonly { id: string; term: string; text: string }[] = [
  { id: 'entry', term: 'Entry (table pointer)', text: 'The table entry being served; the pointer moves to the next entry whose class has a packet.' },
  { id: 'weight', term: 'Weight', text: 'What one visit of an entry may send: credits of 64 B for DTable, units of 64 B for InfiniBand; the AS basic table sends one packet per entry.' },
  { id: 'accumulated', term: 'Accumulated', text: 'DTable: what the selected entry may still send, in credits: the class’s deficit plus the entry’s weight when the entry is selected, minus every packet sent.' },
  { id: 'deficit', term: 'Deficit', text: 'What a class was owed when its entry was left (its head did not fit): added to its next entry’s weight. DTable counts credits, DRR bytes. A class that empties forfeits it.' },
  { id: 'remaining-weight', term: 'Remaining weight', text: 'InfiniBand: the weight left in the selected entry, in 64-byte units.' },
  { id: 'high-limit', term: 'High limit', text: 'InfiniBand: how many bytes the high table may send before the low table gets an opportunity (high_limit × 4096 B).' },
  { id: 'tags', term: 'Start and finish tags', text: 'Fair queueing: the virtual times at which a head packet starts and finishes service; the scheduler serves the smallest (finish for SCFQ and WFQ, start for SFQ, finish among eligible heads for WF²Q+).' },
  { id: 'virtual-time', term: 'Virtual time', text: 'Fair queueing: the clock the tags are compared against.' },
  { id: 'credits', term: 'Credits', text: 'Flow control: free space in the next buffer, in 64-byte credits. A class whose head needs more credits than are free cannot be chosen.' },
];

/** The glossary entries for a scheduler (credits always), in glossary order. */
export function glossaryFor(kind: string) {
  const ids = new Set([...(lookupScheduler(kind)?.animation.glossary ?? []), 'credits']);
  return GLOSSARY.filter((g) => ids.has(g.id));
}
