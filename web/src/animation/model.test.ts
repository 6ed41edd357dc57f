import { describe, expect, it } from 'vitest';
import { PALETTE } from '../charts/palette';
import { asBasicTrace, drrTrace, dtableTrace, ibaTrace, scfqTrace } from './fixtures';
import { deficitUnit, formatValue, largestPacket, layoutQueue, registersBefore, stepView, workKinds, workText } from './model';

describe('stepView on a DTable trace', () => {
  const trace = dtableTrace();

  it('shows the pointer, the selected class, the accumulated register and the deficits after each decision', () => {
    for (let k = 0; k < trace.decisions.length; k++) {
      const r = trace.decisions[k]!.registers;
      const v = stepView(trace, k)!;
      expect(v.tables).toHaveLength(1);
      expect(v.tables[0]!.pointer).toBe(r.entry);
      expect(v.tables[0]!.serving).toBe(true);
      expect(v.selected).toBe(r.selected);
      expect(v.counters.find((c) => c.id === 'accumulated')?.value).toBe(r.accumulated);
      expect(v.classes.map((c) => c.deficit)).toEqual(r.deficit);
    }
  });

  it('describes the decision in words, with the registers that changed', () => {
    expect(stepView(trace, 0)!.text).toBe('step 1: entry 0 (new, weight 4) -> class A sends 128 B (2 credits); accumulated 0 -> 2');
    expect(stepView(trace, 1)!.text).toBe('step 2: entry 1 (new, weight 2) -> class B sends 64 B (1 credit); accumulated 2 -> 0');
    // The deficit of A (2, kept when entry 0 was left) is shown on the class, not in the sentence (A's deficit did not change).
    expect(stepView(trace, 2)!.text).toBe('step 3: entry 0 (new, weight 4) -> class A sends 192 B (3 credits)');
  });

  it('keeps the values before the decision for the counters', () => {
    const v = stepView(trace, 1)!;
    expect(v.counters).toEqual([{ id: 'accumulated', label: 'Accumulated', value: 0, before: 2, text: '0 credits' }]);
    expect(v.classes[0]!.deficitBefore).toBe(0);
    expect(v.classes[0]!.deficit).toBe(2);
    expect(registersBefore(trace, 0)).toBe(trace.initial);
    expect(registersBefore(trace, 2)).toBe(trace.decisions[1]!.registers);
  });

  it('takes the packet leaving out of its queue; other queues stay whole', () => {
    const v = stepView(trace, 0)!;
    expect(v.packet).toEqual({ class: 0, bytes: 128, credits: 2 });
    expect(v.classes[0]).toMatchObject({ waiting: [192], length: 2, unlisted: 0, sends: true, freeCredits: 10, bufferCredits: 10 });
    expect(v.classes[1]).toMatchObject({ waiting: [64], length: 1, sends: false });
    expect(v.classes[0]!.color).toBe(PALETTE[0]);
    expect(v.classes[1]!.color).toBe(PALETTE[1]);
    expect(stepView(trace, 1)!.classes[0]!.freeCredits).toBe(8);
  });

  it('counts the unlisted packets of long queues', () => {
    const t = dtableTrace();
    t.decisions[0]!.queue_lengths = [40, 1];
    expect(stepView(t, 0)!.classes[0]!.unlisted).toBe(38);
  });

  it('lists the work counters used by the trace', () => {
    expect(workKinds(trace)).toEqual(['entries_visited', 'bitmap_words']);
    const v = stepView(trace, 0)!;
    expect(v.work).toEqual([
      { id: 'entries_visited', label: 'entries visited', value: 1 },
      { id: 'bitmap_words', label: 'bitmap words', value: 1 },
    ]);
    expect(workText(v.work)).toBe('1 entry visited, 1 bitmap word');
    expect(workText([{ id: 'entries_visited', label: 'entries visited', value: 3 }])).toBe('3 entries visited');
    expect(workText([])).toBe('no work');
  });

  it('is null out of range', () => {
    expect(stepView(trace, 3)).toBeNull();
    expect(stepView(trace, -1)).toBeNull();
  });
});

describe('stepView on other schedulers', () => {
  it('IBA: two tables with their own pointers, remaining weight and high limit', () => {
    const trace = ibaTrace();
    const v0 = stepView(trace, 0)!;
    expect(v0.tables.map((t) => [t.side, t.entries.length, t.pointer, t.serving])).toEqual([
      ['high', 1, 0, true],
      ['low', 2, null, false],
    ]);
    expect(v0.counters.map((c) => [c.id, c.value, c.text])).toEqual([
      ['remaining_weight', -1, '-1 × 64 B'],
      ['high_limit_used', 128, '128 / 4096 B'],
    ]);
    expect(v0.text).toBe('step 1: high table entry 0 (new, weight 1) -> class A sends 128 B (2 credits); high limit used 0 -> 128');
    const v1 = stepView(trace, 1)!;
    expect(v1.tables.map((t) => [t.side, t.pointer, t.serving])).toEqual([
      ['high', 0, false],
      ['low', 0, true],
    ]);
    expect(v1.text).toBe(
      'step 2: low table entry 0 (new, weight 2) -> class B sends 64 B (1 credit); remaining weight -1 -> 1; high limit used 128 -> 0',
    );
  });

  it('IBA without a high limit says unbounded', () => {
    const trace = ibaTrace();
    delete trace.decisions[0]!.registers.high_limit_bytes;
    expect(stepView(trace, 0)!.counters[1]!.text).toBe('128 B (unbounded)');
  });

  it('DRR: no table, deficits in bytes, the round robin moving on', () => {
    const trace = drrTrace();
    expect(deficitUnit('drr')).toBe('B');
    expect(deficitUnit('dtable')).toBe('credits');
    const v0 = stepView(trace, 0)!;
    expect(v0.tables).toEqual([]);
    expect(v0.selected).toBe(0);
    expect(v0.text).toBe('step 1: class A sends 128 B (2 credits); deficit of A 0 -> 64 B');
    expect(stepView(trace, 1)!.text).toBe('step 2: class B sends 64 B (1 credit); round robin A -> B');
  });

  it('SCFQ: virtual time and head tags (null for an empty queue)', () => {
    const trace = scfqTrace();
    const v = stepView(trace, 0)!;
    expect(v.counters.map((c) => [c.id, c.value, c.before])).toEqual([['virtual_time', 128, 0]]);
    expect(v.classes.map((c) => [c.startTag, c.finishTag])).toEqual([
      [0, 256],
      [null, null],
    ]);
    expect(v.text).toBe('step 1: class B sends 64 B (1 credit); virtual time 0 -> 128');
    expect(workText(v.work)).toBe('1 tag computation, 2 heap operations');
  });

  it('AS basic: one table without weights', () => {
    const v = stepView(asBasicTrace(), 1)!;
    expect(v.tables[0]!.entries).toEqual([
      { index: 0, class: 0 },
      { index: 1, class: 1 },
    ]);
    expect(v.counters).toEqual([]);
    expect(v.classes[0]!.deficit).toBeUndefined();
    expect(v.text).toBe('step 2: entry 1 (new) -> class B sends 64 B (1 credit)');
  });
});

describe('helpers', () => {
  it('formats values', () => {
    expect(formatValue(12)).toBe('12');
    expect(formatValue(12.3456)).toBe('12.35');
    expect(formatValue(0.1 + 0.2)).toBe('0.3');
  });

  it('takes the largest packet of classes and decisions', () => {
    expect(largestPacket(dtableTrace())).toBe(192);
  });

  it('lays queue bars out right to left and counts what does not fit', () => {
    const { bars, hidden } = layoutQueue([100, 50, 100, 100], 2, 300, 0, 1);
    expect(bars).toEqual([
      { x: 200, width: 100, bytes: 100 },
      { x: 149, width: 50, bytes: 50 },
      { x: 48, width: 100, bytes: 100 },
    ]);
    expect(hidden).toBe(1 + 2);
    // Tiny packets keep a visible width.
    expect(layoutQueue([1], 0, 10, 0, 0.01).bars[0]!.width).toBe(2);
  });
});
