import { describe, expect, it } from 'vitest';
import type { DesignEntry } from '../generated';
import { multimediaForm } from './model';
import { schedulerFor, simulationScenario } from './simulation';

const names = ['NC', 'VO', 'VI', 'CL', 'EE', 'BE', 'BK'];

describe('simulating a designed table', () => {
  const table: DesignEntry[] = names.map((n, i) => ({ class: n, weight: i + 1 }));

  it('builds the scheduler of each technology', () => {
    expect(schedulerFor('dtable', table.slice(0, 2), names)).toEqual({
      ok: true,
      scheduler: { kind: 'dtable', table: [{ class: 0, weight: 1 }, { class: 1, weight: 2 }] },
    });
    expect(schedulerFor('infiniband', table.slice(0, 1), names)).toEqual({
      ok: true,
      scheduler: { kind: 'iba', high: [], low: [{ class: 0, weight: 1 }], high_limit: 0 },
    });
    expect(schedulerFor('as', [{ class: 'VI', weight: null }], names)).toEqual({ ok: true, scheduler: { kind: 'as_basic', table: [2] } });
    expect(schedulerFor('dtable', [{ class: 'XX', weight: 1 }], names).ok).toBe(false);
    expect(schedulerFor('dtable', [{ class: 'NC', weight: null }], names).ok).toBe(false);
  });

  it('offers each class its wanted share (total at most 0.95) in packets of its MTU', () => {
    const out = simulationScenario(multimediaForm(), table);
    if (!out.ok) throw new Error(out.reason);
    const m = out.scenario.model;
    if (m.kind !== 'link_lab') throw new Error('a link lab');
    expect(m.link.rate_gbps).toBe(2);
    expect(m.classes.map((c) => c.name)).toEqual(names);
    const loads = m.classes.map((c) => c.traffic.load);
    expect(loads.reduce((a, b) => a + b, 0)).toBeCloseTo(0.95, 6);
    expect(loads[2]).toBeCloseTo(0.5 * 0.95, 9);
    expect(m.classes.map((c) => (c.traffic.size.kind === 'fixed' ? c.traffic.size.bytes : 0))).toEqual([192, 192, 2048, 2048, 1024, 1024, 1024]);
    expect(m.kind === 'link_lab' && m.scheduler.kind).toBe('dtable');
    const f = multimediaForm();
    f.classes = f.classes.slice(0, 2); // shares 0.14: offered as they are
    const small = simulationScenario(f, table.slice(0, 2));
    expect(small.ok && small.scenario.model.kind !== 'network_processor' && small.scenario.model.classes.map((c) => c.traffic.load)).toEqual([0.09375, 0.046875]);
  });

  it('a partial (e.g. imported) table simulates the classes it serves, and says which were left out', () => {
    // `qos_vlarb_low 0:32,1:32,2:64,3:64` on the 7-class multimedia form: EE, BE and BK have
    // no entry, and a class with traffic but no entry is refused by the engine.
    const form = { ...multimediaForm(), technology: 'infiniband' as const };
    const partial = [
      { class: 'NC', weight: 32 },
      { class: 'VO', weight: 32 },
      { class: 'VI', weight: 64 },
      { class: 'CL', weight: 64 },
    ];
    const out = simulationScenario(form, partial);
    if (!out.ok) throw new Error(out.reason);
    expect(out.leftOut).toEqual(['EE', 'BE', 'BK']);
    const m = out.scenario.model;
    if (m.kind !== 'link_lab') throw new Error('a link lab');
    expect(m.classes.map((c) => c.name)).toEqual(['NC', 'VO', 'VI', 'CL']);
    expect(m.scheduler).toEqual({ kind: 'iba', high: [], low: [0, 1, 2, 3].map((c, i) => ({ class: c, weight: partial[i]!.weight })), high_limit: 0 });
    expect(out.scenario.description).toMatch(/left out: EE, BE, BK\.$/);
    expect(simulationScenario(form, [{ class: 'XX', weight: 1 }])).toEqual({ ok: false, reason: 'no entry of the table names a class of the requirements' });
  });

  it('runs the fabric settings’ high table and high limit next to the designed table (InfiniBand)', () => {
    const form = {
      ...multimediaForm(),
      technology: 'infiniband' as const,
      fabric: { prefix: 'qos_swe_' as const, high: [{ class: 'NC', weight: '4' }, { class: 'VO', weight: '2' }], highLimit: '6', sl2vl: null },
    };
    // NC has no low-table entry: it is served by the high table alone and still simulated.
    const low = [{ class: 'VI', weight: 64 }, { class: 'CL', weight: 32 }];
    const out = simulationScenario(form, low);
    if (!out.ok) throw new Error(out.reason);
    const m = out.scenario.model;
    if (m.kind !== 'link_lab') throw new Error('a link lab');
    expect(m.classes.map((c) => c.name)).toEqual(['NC', 'VO', 'VI', 'CL']);
    expect(m.scheduler).toEqual({
      kind: 'iba',
      high: [{ class: 0, weight: 4 }, { class: 1, weight: 2 }],
      low: [{ class: 2, weight: 64 }, { class: 3, weight: 32 }],
      high_limit: 6,
    });
    expect(out.scenario.description).toContain('high-priority table (2 entries, high limit 6 × 4 KiB) is served before the designed table');
    // A weight or limit the engine would refuse is named instead.
    const badWeight = { ...form, fabric: { ...form.fabric, high: [{ class: 'NC', weight: '256' }] } };
    expect(simulationScenario(badWeight, low)).toEqual({ ok: false, reason: 'high-table entry 0 needs a weight from 0 to 255' });
    const badLimit = { ...form, fabric: { ...form.fabric, highLimit: '1.5' } };
    expect(simulationScenario(badLimit, low)).toEqual({ ok: false, reason: 'the high limit must be a whole number from 0 to 255' });
    // DTable has no fabric settings: a stale high table left in the form is not run.
    const dtable = simulationScenario({ ...form, technology: 'dtable' }, low);
    expect(dtable.ok && dtable.scenario.model.kind === 'link_lab' && dtable.scenario.model.scheduler.kind).toBe('dtable');
    expect(dtable.ok && dtable.scenario.model.kind === 'link_lab' && dtable.scenario.model.classes.map((c) => c.name)).toEqual(['VI', 'CL']);
  });

  it('serves Omni-Path high-priority classes first without a limit, as the FM programs them', () => {
    const form = {
      ...multimediaForm(),
      technology: 'omnipath' as const,
      fabric: { prefix: 'qos_' as const, high: [{ class: 'NC', weight: '' }], highLimit: '', sl2vl: null },
    };
    const out = simulationScenario(form, [{ class: 'VI', weight: 10 }]);
    if (!out.ok) throw new Error(out.reason);
    const m = out.scenario.model;
    expect(m.kind === 'link_lab' && m.scheduler).toEqual({ kind: 'iba', high: [{ class: 0, weight: 255 }], low: [{ class: 1, weight: 10 }], high_limit: 255 });
    expect(out.scenario.description).toContain('high limit unbounded');
  });
});
