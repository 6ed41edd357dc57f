import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DesignEngine, DesignOutcome, EvaluateOutcome } from '../engine/client';
import type { Design, DesignEntry, Evaluation, Requirements, Scenario } from '../generated';
import { DesignView, evaluationRequirements } from './DesignView';
import { multimediaForm } from './model';
import { designHash } from './route';

afterEach(cleanup);
beforeEach(() => window.history.replaceState(null, '', '#view=design'));

/** A two-class design as the engine would give it for `r` (w and k as found by a search). */
function designFor(r: Requirements): Design {
  const table: DesignEntry[] = [
    { class: r.classes[0]!.name, weight: 3 },
    { class: r.classes[1]!.name, weight: 61 },
  ];
  return {
    technology: r.technology,
    entries: 2,
    gmtu_credits: 32,
    w: 2,
    k: 0.5,
    pool: 64,
    max_entry_weight: 64,
    table,
    classes: [],
    equivalents: { wf2q_table: [], classes: [] },
    link_rate_gbps: 2,
    mappings: [],
  };
}

function evaluationOf(table: DesignEntry[]): Evaluation {
  const bad = table[0]?.class !== 'NC';
  return {
    link_rate_gbps: 2,
    pool: 64,
    max_entry_weight: 64,
    classes: ['NC', 'VO'].map((name) => ({
      name,
      entries: table.filter((e) => e.class === name).length,
      total_weight: 0,
      min_share: 0,
      max_share: 1,
      share: 0.5,
      wanted_share: 0.5,
      max_distance: 2,
      bound_ns: 1000,
    })),
    violations: bad ? [{ class: 'NC', entry: null, rule: 'no_entries', message: 'NC has no entry in the table, so it is never served.' }] : [],
  };
}

function fakeDesignEngine() {
  const evaluated: { r: Requirements; table: DesignEntry[] }[] = [];
  const engine: DesignEngine = {
    design: async (json: string): Promise<DesignOutcome> => {
      const r = JSON.parse(json) as Requirements;
      if (r.classes[0]?.distance === 0) {
        return { status: 'invalid', error: { kind: 'invalid', errors: [{ path: 'classes[0].distance', message: 'must be between 1 and entries' }] } };
      }
      return { status: 'done', designJson: JSON.stringify(designFor(r)) };
    },
    evaluate: async (rJson: string, tJson: string): Promise<EvaluateOutcome> => {
      const table = JSON.parse(tJson) as DesignEntry[];
      evaluated.push({ r: JSON.parse(rJson) as Requirements, table });
      return { status: 'done', evaluationJson: JSON.stringify(evaluationOf(table)) };
    },
    opensmExport: async () => ({ status: 'done', lines: 'qos_vlarb_low 0:3,1:61\n' }),
    opensmParse: async () => ({ status: 'crashed', message: 'unused' }),
    designExport: async () => ({ status: 'done', lines: '<Config/>\n' }),
    opafmImport: async () => ({ status: 'crashed', message: 'unused' }),
  };
  return { engine, evaluated };
}

const twoClasses = () => {
  const f = multimediaForm();
  return { ...f, w: '', k: '', classes: f.classes.slice(0, 2) };
};

describe('DesignView', () => {
  it('designs in the engine, then evaluates edits against the w and k the search found', async () => {
    window.history.replaceState(null, '', `#${designHash({ version: 1, form: twoClasses(), table: null })}`);
    const { engine, evaluated } = fakeDesignEngine();
    render(<DesignView engine={engine} onSimulate={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Auto-design' }));
    await screen.findByText('Designed: w = 2, k = 0.5, pool 64, M = 64.');
    await waitFor(() => expect(screen.getByTestId('design-live').textContent).toContain('every constraint is met'));
    const last = evaluated.at(-1)!;
    expect([last.r.w, last.r.k, last.r.link_rate_gbps]).toEqual([2, 0.5, 2]);
    expect(last.table).toEqual([{ class: 'NC', weight: 3 }, { class: 'VO', weight: 61 }]);
    expect(screen.getByTestId('design-pool').textContent).toContain('w = 2, k = 0.5 as Auto-design found them');

    fireEvent.keyDown(screen.getByTestId('design-ring'), { key: 'c' });
    await waitFor(() => expect(screen.getByTestId('design-violations').textContent).toContain('NC has no entry in the table'));
    expect(screen.getByTestId('design-live').textContent).toContain('1 constraint is violated');
    expect(evaluated.at(-1)!.table[0]).toEqual({ class: 'VO', weight: 3 });
  });

  it('shows the engine’s message next to the field it names', async () => {
    const form = twoClasses();
    form.classes[0]!.distance = '0';
    window.history.replaceState(null, '', `#${designHash({ version: 1, form, table: null })}`);
    render(<DesignView engine={fakeDesignEngine().engine} onSimulate={() => {}} />);
    const input = screen.getByLabelText('NC distance');
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(input.getAttribute('aria-describedby')!.split(' ')[0]!)!.textContent).toBe('must be between 1 and entries');
  });

  it('restores a shared design and simulates it as a DTable scenario', async () => {
    const table = [{ class: 'VO', weight: 7 }, { class: 'NC', weight: 9 }];
    window.history.replaceState(null, '', `#${designHash({ version: 1, form: twoClasses(), table })}`);
    const opened: Scenario[] = [];
    render(<DesignView engine={fakeDesignEngine().engine} onSimulate={(s) => opened.push(s)} />);
    expect(screen.getByRole('option', { name: 'Entry 0: VO, weight 7' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Simulate this table' }));
    expect(opened).toHaveLength(1);
    const model = opened[0]!.model;
    expect(model.kind === 'link_lab' ? model.scheduler : null).toEqual({ kind: 'dtable', table: [{ class: 1, weight: 7 }, { class: 0, weight: 9 }] });
  });

  it('says an import is under way at once, and reports an engine call that fails instead of saying nothing', async () => {
    const { engine } = fakeDesignEngine();
    let fail!: (e: Error) => void;
    engine.opensmParse = () => new Promise((_, reject) => (fail = reject));
    render(<DesignView engine={engine} onSimulate={() => {}} />);
    fireEvent.change(screen.getByLabelText('Import: paste OpenSM lines, an opafm.xml or design JSON'), { target: { value: 'qos_vlarb_low 0:32' } });
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(screen.getByTestId('design-import-result').textContent).toBe('Importing the text…');
    fail(new Error('the worker went away'));
    await waitFor(() => expect(screen.getByTestId('design-import-result').textContent).toBe('Nothing was imported:The import failed: the worker went away'));
    expect(screen.getByTestId('design-import-result').getAttribute('role')).toBe('alert');
  });

  it('reports a damaged link and opens on the default requirements', () => {
    window.history.replaceState(null, '', '#view=design&v=1&d=@@');
    render(<DesignView engine={fakeDesignEngine().engine} onSimulate={() => {}} />);
    expect(screen.getByRole('alert').textContent).toContain('This designer link cannot be read');
    expect((screen.getByLabelText('Entries N') as HTMLInputElement).value).toBe('64');
  });
});

describe('evaluationRequirements', () => {
  it('keeps w and k the form gives, fills the searched ones from the design', () => {
    const r = (json: string) => JSON.parse(json) as Requirements;
    const design = designFor({ technology: 'dtable', entries: 2, gmtu_bytes: 2048, w: null, k: null, classes: twoClasses().classes.map((c) => ({ name: c.name, distance: null, mtu_bytes: 192, share: 0.1 })) });
    const given = evaluationRequirements(multimediaForm(), { ...design, w: 3, k: 0.7 });
    expect([r(given.json).w, r(given.json).k, given.basis]).toEqual([2, 0.5, '']);
    const searched = evaluationRequirements({ ...multimediaForm(), k: '' }, design);
    expect([r(searched.json).w, r(searched.json).k, searched.basis]).toEqual([2, 0.5, 'k = 0.5 as Auto-design found them']);
    expect(r(evaluationRequirements(twoClasses(), null).json).w).toBeNull();
  });
});
