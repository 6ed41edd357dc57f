// Export (OpenSM lines for InfiniBand designs, design JSON; copy or download) and import
// (paste or upload OpenSM lines or design JSON) of the table designer.
import { useEffect, useRef, useState } from 'react';
import type { Design, DesignEntry } from '../generated';
import { downloadText } from '../shared/download';
import { outcomeLines } from '../engine/outcome';
import type { DesignEngine } from '../engine/client';
import type { Evaluation } from './evaluation';
import { designJsonText, importText, type ImportOutcome } from './io';
import type { DesignForm } from './model';

/** Largest file accepted for import, in bytes. */
const MAX_FILE_BYTES = 1024 * 1024;

interface Props {
  engine: DesignEngine;
  form: DesignForm;
  table: DesignEntry[] | null;
  /** The engine's design for the current requirements (null when they have problems). */
  design: Design | null;
  evaluation: Evaluation | null;
  onImport: (form: DesignForm, table: DesignEntry[] | null) => void;
}

type OpenSm = { key: string; lines: string | null; problems: string[] };

/** The other fabric-manager exports: engine format, label, file name. */
const FABRIC_FORMATS = [
  { value: 'opafm', label: 'Omni-Path FM: complete opafm.xml', file: 'qoslab-opafm.xml', mime: 'application/xml' },
  { value: 'opafm-fragment', label: 'Omni-Path FM: QOSGroups and VirtualFabrics fragment', file: 'qoslab-opafm-fragment.xml', mime: 'application/xml' },
  { value: 'ets', label: 'Linux ETS: tc qdisc command', file: 'qoslab-ets.sh', mime: 'text/plain' },
] as const;

async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function ExportImport({ engine, form, table, design, evaluation, onImport }: Props) {
  const [note, setNote] = useState('');
  const [pasted, setPasted] = useState('');
  const [importResult, setImportResult] = useState<{ ok: boolean; lines: string[] } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const opensmArea = useRef<HTMLTextAreaElement>(null);

  // OpenSM lines of the edited table (InfiniBand only), from the engine.
  const opensmRequest = table !== null && design !== null && form.technology === 'infiniband' ? JSON.stringify({ ...design, table }) : null;
  const [opensm, setOpensm] = useState<OpenSm | null>(null);
  useEffect(() => {
    if (opensmRequest === null) return;
    let live = true;
    engine.opensmExport(opensmRequest).then(
      (outcome) => {
        if (!live) return;
        setOpensm(outcome.status === 'done' ? { key: opensmRequest, lines: outcome.lines, problems: [] } : { key: opensmRequest, lines: null, problems: outcomeLines(outcome) });
      },
      (e: unknown) => {
        if (live) setOpensm({ key: opensmRequest, lines: null, problems: [`The engine could not be reached: ${String(e)}`] });
      },
    );
    return () => {
      live = false;
    };
  }, [engine, opensmRequest]);
  const lines = opensm !== null && opensm.key === opensmRequest ? opensm : null;
  const opensmWhy =
    form.technology !== 'infiniband'
      ? 'OpenSM lines are for InfiniBand designs: choose the technology InfiniBand.'
      : table === null
        ? 'Design or import a table first.'
        : design === null
          ? 'The requirements have problems (marked in the form).'
          : null;

  // Omni-Path FM and Linux ETS texts of the edited table, from the engine.
  const [fabricFormat, setFabricFormat] = useState<(typeof FABRIC_FORMATS)[number]['value']>('opafm');
  const fabricRequest = table !== null && design !== null ? `${fabricFormat}\n${JSON.stringify({ ...design, table })}` : null;
  const [fabricOut, setFabricOut] = useState<OpenSm | null>(null);
  useEffect(() => {
    if (fabricRequest === null || table === null || design === null) return;
    let live = true;
    engine.designExport(JSON.stringify({ ...design, table }), fabricFormat).then(
      (outcome) => {
        if (!live) return;
        setFabricOut(outcome.status === 'done' ? { key: fabricRequest, lines: outcome.lines, problems: [] } : { key: fabricRequest, lines: null, problems: outcomeLines(outcome) });
      },
      (e: unknown) => {
        if (live) setFabricOut({ key: fabricRequest, lines: null, problems: [`The engine could not be reached: ${String(e)}`] });
      },
    );
    return () => {
      live = false;
    };
  }, [engine, fabricRequest, fabricFormat, design, table]);
  const fabricText = fabricOut !== null && fabricOut.key === fabricRequest ? fabricOut : null;
  const fabricChoice = FABRIC_FORMATS.find((f) => f.value === fabricFormat) ?? FABRIC_FORMATS[0];

  const json = designJsonText(form, table, evaluation);

  const runImport = async (text: string, source: string) => {
    // Said at once: the engine may still be loading, and a silent button reads as a dead one.
    setImportResult({ ok: true, lines: [`Importing ${source}…`] });
    let outcome: ImportOutcome;
    try {
      outcome = await importText(engine, text, form);
    } catch (e) {
      setImportResult({ ok: false, lines: [`The import failed: ${e instanceof Error ? e.message : String(e)}`] });
      return;
    }
    if (!outcome.ok) {
      setImportResult({ ok: false, lines: outcome.lines });
      return;
    }
    onImport(outcome.form, outcome.table);
    setImportResult({
      ok: true,
      lines: [`Imported ${outcome.what} from ${source}${outcome.table ? ` (${outcome.table.length} entries)` : ''}.`, ...outcome.notes],
    });
  };

  return (
    <section className="design-io" aria-labelledby="design-io-title">
      <h3 id="design-io-title">Export and import</h3>
      <div className="design-io-grid">
        <div>
          <label htmlFor="design-opensm">OpenSM lines</label>
          {opensmWhy ? (
            <p className="hint" data-testid="design-opensm-why">
              {opensmWhy}
            </p>
          ) : lines && lines.problems.length > 0 ? (
            <ul className="field-error" role="alert">
              {lines.problems.map((p, i) => (
                <li key={i}>{p}</li>
              ))}
            </ul>
          ) : null}
          <textarea
            id="design-opensm"
            ref={opensmArea}
            readOnly
            rows={6}
            spellCheck={false}
            value={opensmWhy === null && lines?.lines ? lines.lines : ''}
            data-testid="design-opensm"
          />
          <div className="row">
            <button
              type="button"
              disabled={opensmWhy !== null || !lines?.lines}
              onClick={async () => {
                if (!lines?.lines) return;
                if (await copyText(lines.lines)) setNote('OpenSM lines copied');
                else {
                  opensmArea.current?.focus();
                  opensmArea.current?.select();
                  setNote('OpenSM lines selected: press Ctrl+C (⌘C) to copy them');
                }
              }}
            >
              Copy OpenSM lines
            </button>
            <button
              type="button"
              disabled={opensmWhy !== null || !lines?.lines}
              onClick={() => lines?.lines && downloadText('qoslab-opensm.conf', lines.lines, 'text/plain')}
            >
              Download OpenSM lines
            </button>
          </div>
        </div>
        <div>
          <label htmlFor="design-fabric-format">Omni-Path FM and Linux ETS</label>
          <select id="design-fabric-format" value={fabricFormat} onChange={(e) => setFabricFormat(e.target.value as typeof fabricFormat)}>
            {FABRIC_FORMATS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
          <p className="hint">
            The FM takes only bandwidth shares (whole percent) and strict priority: entry placement, per-entry weights and deficits are
            not expressed. ETS gets the design’s DRR quanta.
          </p>
          {table === null || design === null ? (
            <p className="hint" data-testid="design-fabric-why">
              {table === null ? 'Design or import a table first.' : 'The requirements have problems (marked in the form).'}
            </p>
          ) : fabricText && fabricText.problems.length > 0 ? (
            <ul className="field-error" role="alert">
              {fabricText.problems.map((p, i) => (
                <li key={i}>{p}</li>
              ))}
            </ul>
          ) : null}
          <textarea readOnly rows={6} spellCheck={false} aria-label={fabricChoice.label} value={fabricText?.lines ?? ''} data-testid="design-fabric-export" />
          <div className="row">
            <button
              type="button"
              disabled={!fabricText?.lines}
              onClick={async () => {
                if (fabricText?.lines) setNote((await copyText(fabricText.lines)) ? `${fabricChoice.label} copied` : 'The clipboard is not available: use Download');
              }}
            >
              Copy
            </button>
            <button type="button" disabled={!fabricText?.lines} onClick={() => fabricText?.lines && downloadText(fabricChoice.file, fabricText.lines, fabricChoice.mime)}>
              Download {fabricChoice.file}
            </button>
          </div>
        </div>
        <div>
          <span className="label">Design JSON</span>
          <p className="hint">The form as typed, the table, the engine’s requirements and the evaluation; importable here.</p>
          <div className="row">
            <button
              type="button"
              onClick={async () => {
                setNote((await copyText(json)) ? 'Design JSON copied' : 'The clipboard is not available: use Download design JSON');
              }}
            >
              Copy design JSON
            </button>
            <button type="button" onClick={() => downloadText('qoslab-design.json', json)}>
              Download design JSON
            </button>
          </div>
          <p role="status" className="note" data-testid="design-io-status">
            {note}
          </p>
        </div>
        <div>
          <label htmlFor="design-import">Import: paste OpenSM lines, an opafm.xml or design JSON</label>
          <textarea
            id="design-import"
            rows={6}
            spellCheck={false}
            value={pasted}
            onChange={(e) => setPasted(e.target.value)}
            aria-describedby="design-import-hint"
          />
          <p className="hint" id="design-import-hint">
            OpenSM: the first vlarb_low list becomes the table, VL i = class i of the form, with its high table, limit and SL2VL.
            opafm.xml: the enabled QOSGroups become the classes.
          </p>
          <div className="row">
            <button type="button" onClick={() => void runImport(pasted, 'the text')} disabled={pasted.trim() === ''}>
              Import
            </button>
            <label className="button file-button">
              Import a file…
              <input
                ref={fileInput}
                className="visually-hidden"
                type="file"
                accept=".conf,.txt,.json,.xml,text/plain,application/json,application/xml"
                onChange={async (e) => {
                  const file = e.target.files?.[0];
                  if (!file) return;
                  if (file.size > MAX_FILE_BYTES) setImportResult({ ok: false, lines: [`${file.name} is ${file.size} bytes; at most ${MAX_FILE_BYTES} are read.`] });
                  else await runImport(await file.text(), file.name);
                  if (fileInput.current) fileInput.current.value = '';
                }}
              />
            </label>
          </div>
          {importResult ? (
            <div role={importResult.ok ? 'status' : 'alert'} className={importResult.ok ? 'design-import-ok' : 'design-problems'} data-testid="design-import-result">
              {importResult.ok ? null : <p>Nothing was imported:</p>}
              <ul>
                {importResult.lines.map((l, i) => (
                  <li key={i}>{l}</li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      </div>
    </section>
  );
}
