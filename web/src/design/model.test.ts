import { describe, expect, it } from 'vitest';
import type { OpenSmParsed } from '../generated';
import {
  cycleClass,
  followRenames,
  formProblems,
  latencyChoice,
  moveKey,
  multimediaForm,
  parseDesignDoc,
  parseWeight,
  tableFromOpenSm,
  toRequirements,
} from './model';

const names = ['NC', 'VO', 'VI', 'CL', 'EE', 'BE', 'BK'];

describe('requirements from the form', () => {
  it('gives the spec vector exactly, blanks as null (search / no distance)', () => {
    const r = toRequirements(multimediaForm());
    expect(r).toEqual({
      technology: 'dtable',
      entries: 64,
      gmtu_bytes: 2048,
      w: 2,
      k: 0.5,
      classes: [
        { name: 'NC', distance: 2, mtu_bytes: 192, share: 0.09375 },
        { name: 'VO', distance: 4, mtu_bytes: 192, share: 0.046875 },
        { name: 'VI', distance: 8, mtu_bytes: 2048, share: 0.5 },
        { name: 'CL', distance: 16, mtu_bytes: 2048, share: 0.203125 },
        { name: 'EE', distance: 32, mtu_bytes: 1024, share: 0.09375 },
        { name: 'BE', distance: 64, mtu_bytes: 1024, share: 0.046875 },
        { name: 'BK', distance: 64, mtu_bytes: 1024, share: 0.015625 },
      ],
      link_rate_gbps: 2,
    });
    const f = multimediaForm();
    f.w = ' ';
    f.k = '';
    f.classes[6]!.distance = '';
    f.linkRate = '2.5';
    const s = toRequirements(f);
    expect([s.w, s.k, s.classes[6]!.distance, s.link_rate_gbps]).toEqual([null, null, null, 2.5]);
    expect('link_rate_gbps' in toRequirements({ ...f, linkRate: 'fast' })).toBe(false);
  });

  it('sends the Omni-Path switch size for the adaptation’s register count, and keeps it in links', () => {
    const f = { ...multimediaForm(), technology: 'omnipath' as const, switchPorts: '24' };
    expect(toRequirements(f).switch_ports).toBe(24);
    // Blank: the engine's default (48); other technologies never send it.
    expect('switch_ports' in toRequirements({ ...f, switchPorts: ' ' })).toBe(false);
    expect('switch_ports' in toRequirements({ ...f, technology: 'infiniband' })).toBe(false);
    expect(formProblems({ ...f, switchPorts: 'many' })).toEqual([
      { path: 'switch_ports', message: 'must be a number, or blank for the 48-port reference switch (got many)' },
    ]);
    const back = parseDesignDoc(JSON.stringify({ version: 1, form: f, table: null }));
    expect(back.ok && back.doc.form.switchPorts).toBe('24');
  });

  it('names unreadable numbers by the engine’s paths', () => {
    const f = multimediaForm();
    f.entries = 'sixty';
    f.w = 'x';
    f.linkRate = '0';
    f.classes[1]!.share = '';
    f.classes[2]!.distance = '8a';
    expect(formProblems(f)).toEqual([
      { path: 'entries', message: 'must be a number (got sixty)' },
      { path: 'w', message: 'must be a number, or blank for search (got x)' },
      { path: 'link_rate_gbps', message: 'must be above 0 Gb/s (got 0)' },
      { path: 'classes[1].share', message: 'must be a number' },
      { path: 'classes[2].distance', message: 'must be a number, or blank for no latency need (got 8a)' },
    ]);
    expect(toRequirements(f).entries).toBeNull();
    expect(formProblems(multimediaForm())).toEqual([]);
  });

  it('maps distances to the latency-class picker', () => {
    expect(['', '2', '64', '3', ' 16 '].map(latencyChoice)).toEqual(['none', '2', '64', 'other', '16']);
  });
});

describe('table editing', () => {
  it('moves around the ring with the keys, wrapping', () => {
    expect(moveKey('ArrowRight', 63, 64)).toBe(0);
    expect(moveKey('ArrowLeft', 0, 64)).toBe(63);
    expect(moveKey('ArrowDown', 5, 64)).toBe(6);
    expect(moveKey('PageUp', 3, 64)).toBe(59);
    expect(moveKey('End', 3, 64)).toBe(63);
    expect(moveKey('Home', 3, 64)).toBe(0);
    expect(moveKey('x', 3, 64)).toBeNull();
    expect(moveKey('ArrowRight', 0, 0)).toBeNull();
  });

  it('cycles classes and reads weights strictly', () => {
    expect(cycleClass(names, 'BK', 1)).toBe('NC');
    expect(cycleClass(names, 'NC', -1)).toBe('BK');
    expect(cycleClass(names, 'gone', 1)).toBe('NC');
    expect(['3', ' 64 ', '', '1.5', '-1', '65536', '0x10'].map(parseWeight)).toEqual([3, 64, null, null, null, null, null]);
  });
});

describe('renaming a class', () => {
  it('moves its entries to the new name; other edits leave the table alone', () => {
    const before = multimediaForm();
    const table = [{ class: 'NC', weight: 3 }, { class: 'VO', weight: 3 }, { class: 'NC', weight: 3 }];
    const after = { ...before, classes: before.classes.map((c, i) => (i === 0 ? { ...c, name: 'Control' } : c)) };
    expect(followRenames(table, before, after)).toEqual([{ class: 'Control', weight: 3 }, { class: 'VO', weight: 3 }, { class: 'Control', weight: 3 }]);
    // Typing a name another class has (a swap in two steps) does not merge the classes.
    const clash = { ...before, classes: before.classes.map((c, i) => (i === 0 ? { ...c, name: 'VO' } : c)) };
    expect(followRenames(table, before, clash)).toBe(table);
    expect(followRenames(table, before, { ...before, classes: before.classes.slice(1) })).toBe(table);
    expect(followRenames(table, before, { ...before, w: '3' })).toBe(table);
  });
});

describe('OpenSM import glue', () => {
  const parsed = (low: [number, number][], extra: Partial<OpenSmParsed['prefixes'][number]> = {}): OpenSmParsed => ({
    prefixes: [{ prefix: 'qos_', max_vls: 8, high_limit: 0, vlarb_high: [[0, 0]], vlarb_low: low, sl2vl: null, ...extra }],
    lints: [],
  });

  const kept = (high: number, limit: string, sl2vl: string) => `Kept qos_ settings: ${high} high-table entries, high limit ${limit}, sl2vl ${sl2vl}.`;

  it('maps VL i to class i', () => {
    const out = tableFromOpenSm(parsed([[0, 3], [2, 64], [6, 16]]), names);
    expect(out).toEqual({
      ok: true,
      notes: [kept(0, '0', 'unset (the default)')],
      table: [{ class: 'NC', weight: 3 }, { class: 'VI', weight: 64 }, { class: 'BK', weight: 16 }],
      fabric: { prefix: 'qos_', high: [], highLimit: '0', sl2vl: null },
    });
  });

  it('names the entry whose VL has no class, and takes VL 15 as OpenSM does (VL 0)', () => {
    expect(tableFromOpenSm(parsed([[0, 3], [9, 4]]), names)).toEqual({
      ok: false,
      lines: ['qos_vlarb_low, entry 2: VL 9 has no class: the requirements have 7 classes (VL i = class i)'],
    });
    const v15 = tableFromOpenSm(parsed([[15, 4]]), names);
    expect(v15.ok && v15.table).toEqual([{ class: 'NC', weight: 4 }]);
    expect(tableFromOpenSm(parsed([[0, 3]], { vlarb_high: [[8, 1]] }), names)).toEqual({
      ok: false,
      lines: ['qos_vlarb_high, entry 1: VL 8 has no class: the requirements have 7 classes (VL i = class i)'],
    });
  });

  it('keeps 64 entries, and the high table as fabric settings', () => {
    const long = Array.from({ length: 70 }, (_, i): [number, number] => [i % 7, 1]);
    const out = tableFromOpenSm(parsed(long, { vlarb_high: [[1, 8]] }), names);
    expect(out.ok && out.table.length).toBe(64);
    expect(out.ok && out.fabric.high).toEqual([{ class: 'VO', weight: '8' }]);
    expect(out.ok && out.notes).toEqual(['Only the first 64 entries were read, as OpenSM does.', kept(1, '0', 'unset (the default)')]);
    expect(tableFromOpenSm({ prefixes: [], lints: [] }, names).ok).toBe(false);
  });

  it('keeps sl2vl, high_limit and the prefix (never dropped silently)', () => {
    const out = tableFromOpenSm(parsed([[0, 3]], { prefix: 'qos_swe_', high_limit: 10, sl2vl: [0, 1, 2, 3, 4, 5, 6, 6, 0, 0, 0, 0, 0, 0, 0, 15] }), names);
    expect(out.ok && out.fabric).toEqual({ prefix: 'qos_swe_', high: [], highLimit: '10', sl2vl: ['0', '1', '2', '3', '4', '5', '6', '6', '0', '0', '0', '0', '0', '0', '0', '15'] });
    expect(out.ok && out.notes).toEqual(['Kept qos_swe_ settings: 0 high-table entries, high limit 10, sl2vl 0,1,2,3,4,5,6,6,0,0,0,0,0,0,0,15.']);
  });
});
