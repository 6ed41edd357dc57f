import { describe, expect, it } from 'vitest';
import { explainDecision, glossaryFor } from './explain';
import { asBasicTrace, drrTrace, dtableTrace, ibaTrace, scfqTrace } from './fixtures';

describe('explainDecision', () => {
  it('DTable: the entry, its class, deficit + weight against the head, and what is left', () => {
    const t = dtableTrace();
    expect(explainDecision(t, 0)).toBe(
      'Entry 0 is the next entry whose class has a packet: it belongs to A. A’s deficit 0 + the entry’s weight 4 = 4 credits covers its head of 128 B (2 credits): send, 2 left; 10 downstream credits are free, enough for it.',
    );
    // Step 2: A comes back with the 2 credits it was owed.
    expect(explainDecision(t, 2)).toMatch(/^Entry 0 is the next entry .* A’s deficit 2 \+ the entry’s weight 4 = 6 credits covers its head of 192 B \(3 credits\): send, 3 left; 8 downstream credits/);
  });

  it('every decision of every scheduler gets one sentence naming the class sent', () => {
    for (const trace of [dtableTrace(), ibaTrace(), drrTrace(), scfqTrace(), asBasicTrace()]) {
      trace.decisions.forEach((d, k) => {
        const s = explainDecision(trace, k);
        expect(s, `${trace.scheduler} step ${k}`).toContain(trace.classes[d.class]!.name);
        expect(s.endsWith('.')).toBe(true);
        expect(s).not.toMatch(/NaN|undefined/);
      });
    }
    expect(explainDecision(ibaTrace(), 0)).toMatch(/^High table entry 0 belongs to A .*high limit/);
    expect(explainDecision(scfqTrace(), 0)).toMatch(/smallest finish tag/);
    expect(explainDecision(dtableTrace(), 99)).toBe('');
  });

  it('the glossary lists the registers of the scheduler shown', () => {
    expect(glossaryFor('dtable').map((g) => g.term)).toEqual(['Entry (table pointer)', 'Weight', 'Accumulated', 'Deficit', 'Credits']);
    expect(glossaryFor('iba').map((g) => g.term)).toContain('High limit');
    expect(glossaryFor('scfq').map((g) => g.term)).toContain('Start and finish tags');
  });
});
