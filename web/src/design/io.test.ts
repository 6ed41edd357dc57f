import { describe, expect, it } from 'vitest';
import type { OpafmImportOutcome, OpenSmParseOutcome, Unfinished } from '../engine/protocol';
import type { OpenSmParsed } from '../generated';
import { designJsonText, importText, type ImportEngine } from './io';
import { multimediaForm, toRequirements } from './model';

/** An engine whose OpenSM and opafm readers answer as given (the real ones are tested in Rust and e2e). */
const engineAnswering = (answers: { opensm?: OpenSmParseOutcome; opafm?: OpafmImportOutcome }): ImportEngine & { seen: string[] } => {
  const seen: string[] = [];
  const unused: Unfinished = { status: 'invalid', error: { kind: 'internal', message: 'not called' } };
  return {
    seen,
    opensmParse: (text: string) => {
      seen.push(text);
      return Promise.resolve(answers.opensm ?? unused);
    },
    opafmImport: (text: string) => {
      seen.push(text);
      return Promise.resolve(answers.opafm ?? unused);
    },
  };
};

describe('import', () => {
  it('reads this page’s design JSON export back to the same form and table', async () => {
    const form = multimediaForm();
    const table = [{ class: 'VI', weight: 64 }, { class: 'NC', weight: 3 }];
    const engine = engineAnswering({});
    const out = await importText(engine, designJsonText(form, table, null), { ...multimediaForm(), technology: 'as' });
    expect(out).toEqual({ ok: true, form, table, what: 'design', notes: [] });
    expect(engine.seen).toEqual([]);
  });

  it('reads requirements JSON (qoslab design input) into the form', async () => {
    const engine = engineAnswering({});
    const r = { ...toRequirements(multimediaForm()), w: null };
    const out = await importText(engine, JSON.stringify(r), multimediaForm());
    expect(out.ok && out.form).toEqual({ ...multimediaForm(), w: '' });
    expect(out.ok && out.table).toBeNull();
  });

  it('reads a design as qoslab design prints it: form (MTUs in whole credits) and table', async () => {
    const engine = engineAnswering({});
    const design = {
      technology: 'infiniband',
      entries: 2,
      gmtu_credits: 32,
      w: 2,
      k: 0.5,
      pool: 64,
      max_entry_weight: 64,
      link_rate_gbps: 2.5,
      table: [{ class: 'A', weight: 60 }, { class: 'B', weight: 4 }],
      classes: [
        { name: 'A', distance: 2, mtu_credits: 16, wanted_share: 0.9, entries: 1 },
        { name: 'B', distance: null, mtu_credits: 3, wanted_share: 0.05, entries: 1 },
      ],
      equivalents: { wf2q_table: [], classes: [] },
    };
    const out = await importText(engine, JSON.stringify(design), multimediaForm());
    if (!out.ok) throw new Error(out.lines.join());
    expect(out.form).toEqual({
      technology: 'infiniband',
      entries: '2',
      gmtu: '2048',
      w: '2',
      k: '0.5',
      linkRate: '2.5',
      classes: [
        { name: 'A', distance: '2', share: '0.9', mtu: '1024' },
        { name: 'B', distance: '', share: '0.05', mtu: '192' },
      ],
    });
    expect(out.table).toEqual(design.table);
  });

  it('hands OpenSM lines to the engine and maps vlarb_low onto the classes, with the lints', async () => {
    const parsed: OpenSmParsed = {
      prefixes: [{ prefix: 'qos_swe_', max_vls: 8, high_limit: 0, vlarb_high: [[0, 0]], vlarb_low: [[2, 64], [15, 3]], sl2vl: null }],
      lints: [{ kind: 'Vl15InVlarb', path: 'line 4 (qos_swe_vlarb_low), entry 2', message: 'VL 15 is programmed as VL 0' }],
    };
    const engine = engineAnswering({ opensm: { status: 'done', parsed } });
    const out = await importText(engine, 'qos_swe_vlarb_low 2:64,15:3\n', multimediaForm());
    expect(engine.seen).toEqual(['qos_swe_vlarb_low 2:64,15:3\n']);
    if (!out.ok) throw new Error(out.lines.join());
    expect(out.table).toEqual([{ class: 'VI', weight: 64 }, { class: 'NC', weight: 3 }]);
    expect(out.form.technology).toBe('infiniband');
    expect(out.form.entries).toBe('2');
    expect(out.notes).toEqual([
      'OpenSM warning, line 4 (qos_swe_vlarb_low), entry 2: VL 15 is programmed as VL 0',
      'Kept qos_swe_ settings: 0 high-table entries, high limit 0, sl2vl unset (the default).',
      'The technology was set to InfiniBand (OpenSM configures InfiniBand).',
    ]);
    expect(out.form.fabric).toEqual({ prefix: 'qos_swe_', high: [], highLimit: '0', sl2vl: null });
  });

  it('reads an opafm.xml through the engine into requirements', async () => {
    const r = { ...toRequirements(multimediaForm()), technology: 'omnipath' as const, fabric: { high: [{ class: 'NC', weight: 255 }] } };
    const engine = engineAnswering({ opafm: { status: 'done', requirementsJson: JSON.stringify(r) } });
    const out = await importText(engine, '<Config></Config>', multimediaForm());
    expect(engine.seen).toEqual(['<Config></Config>']);
    if (!out.ok) throw new Error(out.lines.join());
    expect(out.what).toBe('an Omni-Path opafm.xml');
    expect(out.form.technology).toBe('omnipath');
    expect(out.form.fabric?.high).toEqual([{ class: 'NC', weight: '255' }]);
  });

  it('passes the engine’s errors on, naming line and entry', async () => {
    const engine = engineAnswering({
      opensm: { status: 'invalid', error: { kind: 'invalid', errors: [{ path: 'line 1 (qos_vlarb_low), entry 2', message: 'VL 16 is out of range 0-15' }] } },
    });
    expect(await importText(engine, 'qos_vlarb_low 0:1,16:2', multimediaForm())).toEqual({
      ok: false,
      lines: ['line 1 (qos_vlarb_low), entry 2: VL 16 is out of range 0-15'],
    });
    expect((await importText(engine, '{"version": 1', multimediaForm())).ok).toBe(false);
    expect((await importText(engine, '  ', multimediaForm())).ok).toBe(false);
  });
});
