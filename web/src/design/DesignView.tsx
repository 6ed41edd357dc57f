// The table designer ("Design" view): requirements form, Auto-design (the engine's
// `design` in the worker), the table as an editable ring, its live evaluation, export /
// import (OpenSM lines, design JSON), "Simulate this table" and the share link. The whole
// design (form as typed + edited table) lives in the address: `#view=design&v=1&d=...`.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DesignEngine } from '../engine/client';
import type { Design, DesignEntry, Evaluation, FieldError, Requirements, Scenario } from '../generated';
import { outcomeError, outcomeLines } from '../engine/outcome';
import { fieldErrors, groupByPath } from '../shared/errors';
import { SharePanel } from '../share/SharePanel';
import { urlWithHash } from '../share/link';
import { useHashSync } from '../state/useHashSync';
import { EvaluationPanel } from './EvaluationPanel';
import { ExportImport } from './ExportImport';
import { FabricPanel } from './FabricPanel';
import { hasFabric } from './fabric';
import { MappingPanel } from './MappingPanel';
import { designDoc, formFromRequirements } from './io';
import { defaultForm, followRenames, formProblems, multimediaForm, setEntry, toRequirements, type DesignForm } from './model';
import { simulationScenario } from './simulation';
import { RequirementsForm } from './RequirementsForm';
import { designFromHash, designHash, isDesignHash } from './route';
import { TableRing } from './TableRing';
import './design.css';
import { ENGINE_LIMITS } from '../generated/limits';

/** Delay before the form is checked (designed) by the engine after an edit, in ms. */
const CHECK_DEBOUNCE_MS = 150;

interface Props {
  engine: DesignEngine;
  /** Opens a scenario in the link lab. */
  onSimulate: (scenario: Scenario) => void;
}

/** The engine's answer for one requirements JSON. */
type Checked = { key: string; design: Design | null; errors: FieldError[] };

/** The engine's evaluation of one (requirements, table) pair. */
type Evaluated = { key: string; evaluation: Evaluation | null; problems: string[] };

/**
 * The requirements a table is evaluated against: the form's, with w and k that the form
 * leaves to the search taken from the design Auto-design finds for the form (so an edited
 * table is checked against the M and pool it was designed with).
 */
export function evaluationRequirements(form: DesignForm, design: Design | null): { json: string; basis: string } {
  const r = toRequirements(form);
  const found: string[] = [];
  if (design !== null) {
    if (r.w === null && design.w !== null) {
      r.w = design.w;
      found.push(`w = ${design.w}`);
    }
    if (r.k === null && design.k !== null) {
      r.k = design.k;
      found.push(`k = ${design.k}`);
    }
  }
  const basis = found.length > 0 ? `${found.join(', ')} as Auto-design found them` : '';
  return { json: JSON.stringify(r), basis };
}

function initial(): { form: DesignForm; table: DesignEntry[] | null; problem: string[] | null } {
  const read = designFromHash(window.location.hash);
  if (!read.ok) return { form: defaultForm(), table: null, problem: read.lines };
  if (read.doc === null) return { form: defaultForm(), table: null, problem: null };
  return { form: read.doc.form, table: read.doc.table, problem: null };
}

export function DesignView({ engine, onSimulate }: Props) {
  const [start] = useState(initial);
  const [form, setForm] = useState<DesignForm>(start.form);
  const [table, setTable] = useState<DesignEntry[] | null>(start.table);
  const [linkProblem, setLinkProblem] = useState<string[] | null>(start.problem);
  const [selected, setSelected] = useState(0);
  const [status, setStatus] = useState('');
  const [simulateProblem, setSimulateProblem] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  // The address follows the design; a pasted designer link replaces it.
  const hash = useMemo(() => designHash(designDoc(form, table)), [form, table]);
  const onExternalHash = useCallback((h: string) => {
    if (!isDesignHash(h)) return;
    const read = designFromHash(h);
    if (!read.ok) {
      setLinkProblem(read.lines);
      return;
    }
    setLinkProblem(null);
    setForm(read.doc?.form ?? defaultForm());
    setTable(read.doc?.table ?? null);
    setSelected(0);
  }, []);
  useHashSync(hash, onExternalHash);
  const url = urlWithHash(hash, window.location);

  // The engine checks (designs) the requirements as they are typed.
  const requirementsJson = useMemo(() => JSON.stringify(toRequirements(form)), [form]);
  const [checked, setChecked] = useState<Checked | null>(null);
  useEffect(() => {
    let live = true;
    const timer = window.setTimeout(() => {
      engine.design(requirementsJson).then(
        (outcome) => {
          if (!live) return;
          if (outcome.status === 'done') setChecked({ key: requirementsJson, design: JSON.parse(outcome.designJson) as Design, errors: [] });
          else setChecked({ key: requirementsJson, design: null, errors: fieldErrors(outcomeError(outcome)) });
        },
        (e: unknown) => {
          if (live) setChecked({ key: requirementsJson, design: null, errors: [{ path: '', message: `The engine could not be reached: ${String(e)}` }] });
        },
      );
    }, CHECK_DEBOUNCE_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [engine, requirementsJson]);
  const current = checked !== null && checked.key === requirementsJson ? checked : null;

  const local = useMemo(() => formProblems(form), [form]);
  const errors = useMemo(() => {
    const localPaths = new Set(local.map((e) => e.path));
    // A number the form cannot read reaches the engine as null: keep the form's words for it.
    const fromEngine = (current?.errors ?? []).filter((e) => !localPaths.has(e.path));
    return groupByPath([...local, ...fromEngine]);
  }, [local, current]);
  const errorCount = [...errors.values()].reduce((n, l) => n + l.length, 0);

  const autoDesign = async () => {
    setStatus('Designing…');
    const outcome = await engine.design(requirementsJson);
    if (outcome.status !== 'done') {
      setChecked({ key: requirementsJson, design: null, errors: fieldErrors(outcomeError(outcome)) });
      setStatus(`No table: ${outcomeLines(outcome).join('; ')}`);
      return;
    }
    const design = JSON.parse(outcome.designJson) as Design;
    setChecked({ key: requirementsJson, design, errors: [] });
    setTable(design.table);
    setSelected(0);
    setStatus(
      design.w === null
        ? `Designed: ${design.entries} entries placed by distance.`
        : `Designed: w = ${design.w}, k = ${design.k}, pool ${design.pool}, M = ${design.max_entry_weight}.`,
    );
  };

  // The evaluation of the table being edited.
  const names = useMemo(() => form.classes.map((c) => c.name), [form]);
  const distances = useMemo(() => new Map(form.classes.map((c) => [c.name, c.distance.trim()])), [form]);
  const design = current?.design ?? null;
  const evalRequest = useMemo(
    () => (table === null || current === null ? null : { ...evaluationRequirements(form, design), table: JSON.stringify(table) }),
    [form, design, table, current],
  );
  const evalKey = evalRequest === null ? null : `${evalRequest.json}\n${evalRequest.table}`;
  const [evaluated, setEvaluated] = useState<Evaluated | null>(null);
  useEffect(() => {
    if (evalRequest === null || evalKey === null) return;
    let live = true;
    engine.evaluate(evalRequest.json, evalRequest.table).then(
      (outcome) => {
        if (!live) return;
        if (outcome.status === 'done') setEvaluated({ key: evalKey, evaluation: JSON.parse(outcome.evaluationJson) as Evaluation, problems: [] });
        else setEvaluated({ key: evalKey, evaluation: null, problems: outcomeLines(outcome) });
      },
      (e: unknown) => {
        if (live) setEvaluated({ key: evalKey, evaluation: null, problems: [`The engine could not be reached: ${String(e)}`] });
      },
    );
    return () => {
      live = false;
    };
  }, [engine, evalRequest, evalKey]);
  const shown = evaluated !== null && evaluated.key === evalKey ? evaluated : null;
  // Keep the last evaluation on screen while the next one is computed (no flicker while typing).
  const [lastShown, setLastShown] = useState<Evaluated | null>(null);
  if (shown !== null && shown !== lastShown) setLastShown(shown);
  const visible = table === null ? null : (shown ?? lastShown);
  const evaluation = visible?.evaluation ?? null;
  const evalProblems =
    visible && visible.problems.length > 0
      ? ['The requirements have problems (marked in the form): fix them to evaluate the table.', ...visible.problems]
      : [];

  const maxWeight = form.technology === 'as' ? null : form.technology === 'dtable' ? ENGINE_LIMITS.max_dtable_weight : ENGINE_LIMITS.iba_max_weight;
  // What "Simulate this table" would run; the button is disabled with the reason when nothing.
  const built = useMemo(() => (table === null ? null : simulationScenario(form, table)), [form, table]);
  const simulate = () => {
    if (built === null) return;
    if (!built.ok) {
      setSimulateProblem(`The table cannot be simulated: ${built.reason}.`);
      return;
    }
    setSimulateProblem(null);
    onSimulate(built.scenario);
  };

  return (
    <section className="panel design" aria-labelledby="design-title" data-testid="design-view">
      <div className="panel-head">
        <h2 id="design-title" ref={heading} tabIndex={-1}>
          Table designer
        </h2>
        <SharePanel url={url} />
      </div>
      {linkProblem ? (
        <div role="alert" className="design-problems">
          <p>This designer link cannot be read; the default requirements are shown.</p>
          <ul>
            {linkProblem.map((l, i) => (
              <li key={i}>{l}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="design-intro">
        Give each class a latency (distance: at most that many entries between two of its entries), a wanted share of
        the link and an MTU; Auto-design places the entries and spreads the weights by the decoupling method. Edit the
        table on the ring and watch the evaluation.
      </p>
      <RequirementsForm
        form={form}
        onChange={(next) => {
          // A renamed class keeps its entries.
          setTable((t) => (t === null ? t : (followRenames(t, form, next) as DesignEntry[])));
          setForm(next);
        }}
        errors={errors}
        onLoadVector={() => {
          setForm(multimediaForm());
          setStatus('Loaded the multimedia vector (spec, 7 classes).');
        }}
        onLoadR3={() => {
          // The R3 presets' table comes from this file too (`qoslab design designs/r3-table.json`).
          fetch(new URL('designs/r3-table.json', document.baseURI))
            .then(async (response) => {
              if (!response.ok) throw new Error(`HTTP ${response.status}`);
              setForm(formFromRequirements((await response.json()) as Requirements, form.linkRate));
              setStatus('Loaded the R3 table requirements (designs/r3-table.json, 7 classes); press Auto-design.');
            })
            .catch((e: unknown) => setStatus(`The R3 table requirements could not be loaded: ${e instanceof Error ? e.message : String(e)}`));
        }}
      />
      {hasFabric(form.technology) ? <FabricPanel form={form} design={current?.design ?? null} errors={errors} onChange={(fabric) => setForm({ ...form, fabric })} /> : null}
      <div className="design-actions">
        <button type="button" className="primary" onClick={() => void autoDesign()} disabled={local.length > 0}>
          Auto-design
        </button>
        <span role="status" className="note" data-testid="design-status">
          {status}
          {errorCount > 0 ? ` ${errorCount === 1 ? '1 problem' : `${errorCount} problems`} in the requirements.` : ''}
        </span>
      </div>
      <div className="design-body">
        <section className="design-table" aria-labelledby="design-table-title">
          <h3 id="design-table-title">Table</h3>
          {table === null ? (
            <p className="placeholder">No table yet: press Auto-design, or import one.</p>
          ) : (
            <TableRing
              table={table}
              names={names}
              selected={selected}
              onSelect={setSelected}
              onChange={(i, e) => setTable((t) => (t ? setEntry(t, i, e) : t))}
              maxWeight={maxWeight}
            />
          )}
          <div className="design-simulate">
            <button
              type="button"
              onClick={simulate}
              disabled={built === null || !built.ok}
              aria-describedby={built && !built.ok ? 'design-simulate-why' : undefined}
            >
              Simulate this table
            </button>
            {built && !built.ok ? (
              <p className="hint" id="design-simulate-why" data-testid="design-simulate-why">
                Cannot simulate: {built.reason}.
              </p>
            ) : built && built.leftOut.length > 0 ? (
              <p className="hint" data-testid="design-simulate-note">
                Simulates the classes the table serves; {built.leftOut.join(', ')} {built.leftOut.length === 1 ? 'has' : 'have'} no entry and{' '}
                {built.leftOut.length === 1 ? 'is' : 'are'} left out.
              </p>
            ) : null}
            {simulateProblem ? (
              <p role="alert" className="field-error">
                {simulateProblem}
              </p>
            ) : null}
          </div>
        </section>
        <EvaluationPanel
          evaluation={evaluation}
          table={table ?? []}
          distances={distances}
          basis={evalRequest?.basis ?? ''}
          problems={evalProblems}
          pending={table !== null && shown === null}
          highEntries={hasFabric(form.technology) ? (form.fabric?.high.length ?? 0) : 0}
        />
      </div>
      {design ? <MappingPanel mappings={design.mappings} /> : null}
      <ExportImport
        engine={engine}
        form={form}
        table={table}
        design={design}
        evaluation={evaluation}
        onImport={(f, t) => {
          setForm(f);
          setTable(t);
          setSelected(0);
          // The table shown is no longer the one Auto-design made.
          setStatus(t === null ? 'Imported the requirements.' : `Imported a table of ${t.length} entries (not designed: Auto-design replaces it).`);
        }}
      />
    </section>
  );
}
