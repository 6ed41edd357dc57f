import { describe, expect, it } from 'vitest';
import type { Scenario } from '../generated';
import { defaultScenario } from '../state/scenario';
import { setBasic } from '../form/basics';
import {
  addClass,
  addEntry,
  creditsFor,
  freshClassName,
  labOf,
  MAX_CLASSES,
  moveEntry,
  removeClass,
  removeEntry,
  setClassArrivalField,
  setClassArrivals,
  setClassLoad,
  setClassName,
  setClassSizeField,
  setClassSizeKind,
  setEntry,
  setLinkRate,
  tableOf,
} from './edit';

/** A small scenario: classes A, B, C and table [A 4, B 8, C 4, B 8, A 4]. */
function abc(): Scenario {
  const s = defaultScenario();
  const base = labOf(s)!.classes[0]!;
  return {
    ...s,
    model: {
      ...s.model,
      classes: ['A', 'B', 'C'].map((name) => ({ ...base, name })),
      scheduler: {
        kind: 'dtable',
        table: [
          { class: 0, weight: 4 },
          { class: 1, weight: 8 },
          { class: 2, weight: 4 },
          { class: 1, weight: 8 },
          { class: 0, weight: 4 },
        ],
      },
    },
  };
}

const pairs = (s: Scenario) => tableOf(s).map((e) => [e.class, e.weight]);

describe('scenario edits', () => {
  it('never mutate their input', () => {
    const s = abc();
    const frozen = JSON.stringify(s);
    removeClass(s, 1);
    addClass(s);
    moveEntry(s, 0, 1);
    setEntry(s, 0, { weight: 99 });
    setClassSizeKind(s, 0, 'pareto');
    setBasic(s, 'name', 'x');
    setLinkRate(s, 10);
    expect(JSON.stringify(s)).toBe(frozen);
  });

  it('removing a class removes its entries and renumbers the later ones', () => {
    const s = removeClass(abc(), 1);
    expect(labOf(s)!.classes.map((c) => c.name)).toEqual(['A', 'C']);
    expect(pairs(s)).toEqual([
      [0, 4],
      [1, 4],
      [0, 4],
    ]);
    expect(pairs(removeClass(abc(), 0))).toEqual([
      [0, 8],
      [1, 4],
      [0, 8],
    ]);
    expect(removeClass(abc(), 7)).toEqual(abc());
  });

  it('adding a class adds an entry for it, with a fresh name', () => {
    const s = addClass(abc());
    expect(labOf(s)!.classes).toHaveLength(4);
    expect(labOf(s)!.classes[3]?.name).toBe('Class 3');
    expect(tableOf(s).at(-1)).toEqual({ class: 3, weight: 16 });
    const lab = labOf(s)!;
    expect(freshClassName({ ...s, model: { ...lab, kind: 'link_lab', classes: [...lab.classes, { ...lab.classes[0]!, name: 'Class 4' }] } })).toBe(
      'Class 5',
    );
  });

  it('stops adding classes at the limit', () => {
    let s = abc();
    for (let k = 0; k < MAX_CLASSES + 10; k++) s = addClass(s);
    expect(labOf(s)!.classes).toHaveLength(MAX_CLASSES);
  });

  it('adds, removes, moves and changes entries', () => {
    let s = addEntry(abc());
    expect(pairs(s).at(-1)).toEqual([0, 4]);
    s = setEntry(s, 5, { class: 2, weight: 12 });
    expect(pairs(s).at(-1)).toEqual([2, 12]);
    s = moveEntry(s, 5, -1);
    expect(pairs(s).slice(-2)).toEqual([
      [2, 12],
      [0, 4],
    ]);
    expect(moveEntry(s, 0, -1)).toBe(s);
    expect(moveEntry(s, 5, 1)).toBe(s);
    s = removeEntry(s, 0);
    expect(pairs(s)[0]).toEqual([1, 8]);
    expect(tableOf(s)).toHaveLength(5);
  });

  it('adding an entry to an empty table uses class 0 and its MTU', () => {
    const s = abc();
    const empty: Scenario = { ...s, model: { ...labOf(s)!, kind: 'link_lab', scheduler: { kind: 'dtable', table: [] } } };
    const mtu = creditsFor(160);
    expect(pairs(addEntry(empty))).toEqual([[0, mtu]]);
  });

  it('changes size kinds keeping the sizes that carry over', () => {
    let s = setClassSizeField(abc(), 0, 'bytes', 1000);
    s = setClassSizeKind(s, 0, 'uniform');
    expect(labOf(s)!.classes[0]?.traffic.size).toEqual({ kind: 'uniform', min_bytes: 1000, max_bytes: 1000 });
    s = setClassSizeField(s, 0, 'min_bytes', 64);
    s = setClassSizeKind(s, 0, 'pareto');
    expect(labOf(s)!.classes[0]?.traffic.size).toEqual({ kind: 'pareto', min_bytes: 64, max_bytes: 1000, shape: 1.2 });
    s = setClassSizeKind(s, 0, 'fixed');
    expect(labOf(s)!.classes[0]?.traffic.size).toEqual({ kind: 'fixed', bytes: 1000 });
    // A field the kind does not have is ignored.
    expect(setClassSizeField(s, 0, 'shape', 2)).toEqual(s);
  });

  it('sets class fields; unreadable numbers travel as null for the engine to name', () => {
    let s = setClassName(abc(), 2, 'Gold');
    s = setClassLoad(s, 2, Number.NaN);
    expect(labOf(s)!.classes[2]?.name).toBe('Gold');
    expect(JSON.parse(JSON.stringify(s)).model.classes[2].traffic.load).toBeNull();
  });
});

describe('arrival processes', () => {
  it('switches kinds with default parameters and keeps them while the kind stays', () => {
    let s = setClassArrivals(abc(), 1, 'on_off');
    expect(labOf(s)!.classes[1]!.traffic.arrivals).toEqual({ kind: 'on_off', mean_on_us: 100, mean_off_us: 300 });
    s = setClassArrivalField(s, 1, 'mean_off_us', 50);
    expect(labOf(setClassArrivals(s, 1, 'on_off'))!.classes[1]!.traffic.arrivals).toEqual({
      kind: 'on_off',
      mean_on_us: 100,
      mean_off_us: 50,
    });
    s = setClassArrivals(s, 1, 'bursts');
    expect(labOf(s)!.classes[1]!.traffic.arrivals).toEqual({ kind: 'bursts', packets: 60 });
    s = setClassArrivalField(s, 1, 'packets', 4);
    expect(labOf(s)!.classes[1]!.traffic.arrivals).toEqual({ kind: 'bursts', packets: 4 });
    expect(labOf(setClassArrivals(s, 1, 'poisson'))!.classes[1]!.traffic.arrivals).toEqual({ kind: 'poisson' });
    // Other classes untouched.
    expect(labOf(s)!.classes[0]!.traffic.arrivals).toEqual(labOf(abc())!.classes[0]!.traffic.arrivals);
  });

  it('ignores a parameter the kind does not have', () => {
    const s = setClassArrivals(abc(), 0, 'bursts');
    expect(setClassArrivalField(s, 0, 'mean_on_us', 5)).toEqual(s);
    const p = setClassArrivals(abc(), 0, 'poisson');
    expect(setClassArrivalField(p, 0, 'packets', 5)).toEqual(p);
  });
});
