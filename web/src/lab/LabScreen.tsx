// The link lab once a scenario is loaded: toolbar (run, share), editor, results.
import { useCallback, useMemo, useState } from 'react';
import { AnimationView } from '../animation/AnimationView';
import { isAnimateHash, withAnimateView } from '../animation/route';
import { ComparePanel } from '../compare/ComparePanel';
import { useComparison } from '../compare/useComparison';
import { PresetMenu } from '../presets/PresetMenu';
import { fetchText, groupPresets, presetGroups, presetName, type PresetInfo } from '../presets/presets';
import { SweepPanel } from '../sweep/SweepPanel';
import type { Engine, SweepEngine } from '../engine/client';
import { EditorEngineContext } from '../engine/editorEngine';
import type { Scenario } from '../generated';
import { SharePanel } from '../share/SharePanel';
import { encodeHash, urlWithHash } from '../share/link';
import { useHashSync } from '../state/useHashSync';
import { useRunner } from '../state/useRunner';
import { useValidation } from '../state/useValidation';
import { useWorkEstimate } from '../state/useWorkEstimate';
import { ErrorSummary } from './ErrorSummary';
import { groupByPath } from '../shared/errors';
import { FieldErrorsContext } from '../form/fieldErrors';
import { ResultsPanel } from './ResultsPanel';
import { RunControls } from './RunControls';
import { ScenarioEditor } from './ScenarioEditor';
import { ScenarioFiles } from './ScenarioFiles';
import { WorkEstimateNote } from './WorkEstimateNote';
import type { Edit } from '../form/types';

interface Props {
  engine: Engine;
  scenario: Scenario;
  onEdit: Edit;
  onOpenFile: (name: string, text: string) => Promise<void>;
  onExternalHash: (hash: string) => void;
  onError: (title: string, lines: string[]) => void;
  /** The bundled presets. */
  presets?: readonly PresetInfo[];
  /** The preset the scenario was opened from. */
  preset?: string | null;
  /** The preset's scenario as opened (JSON): while the scenario is unchanged, the address is
   * `#preset=<name>`, so a reload or a shared link keeps the preset (and its group). */
  presetJson?: string | null;
  onOpenPreset?: (name: string) => void;
  createEngine?: () => SweepEngine;
}

const NO_PRESETS: readonly PresetInfo[] = [];
/** The bundled network a new one starts from (`public/presets/network-starter.json`). */
const NETWORK_STARTER = 'network-starter';

/** The lab's address: `preset=<name>` while the scenario is the preset as opened, else the
 * share link of the scenario. */
export function labHash(scenario: Scenario, scenarioJson: string, preset: string | null, presetJson: string | null): string {
  return preset !== null && presetJson === scenarioJson ? `preset=${encodeURIComponent(preset)}` : encodeHash(scenario);
}

export function LabScreen({
  engine,
  scenario,
  onEdit,
  onOpenFile,
  onExternalHash,
  onError,
  presets = NO_PRESETS,
  preset = null,
  presetJson = null,
  onOpenPreset,
  createEngine,
}: Props) {
  const scenarioJson = useMemo(() => JSON.stringify(scenario), [scenario]);
  const [animating, setAnimating] = useState(() => isAnimateHash(window.location.hash));
  const hash = useMemo(
    () => withAnimateView(labHash(scenario, scenarioJson, preset, presetJson), animating),
    [scenario, scenarioJson, preset, presetJson, animating],
  );
  const url = urlWithHash(hash, window.location);
  const onHash = useCallback(
    (h: string) => {
      setAnimating(isAnimateHash(h));
      onExternalHash(h);
    },
    [onExternalHash],
  );
  useHashSync(hash, onHash);

  const validate = useMemo(() => engine.validate.bind(engine), [engine]);
  const validation = useValidation(engine, scenarioJson);
  const checked = validation.json === scenarioJson;
  const errors = validation.errors;
  const byPath = useMemo(() => groupByPath(errors), [errors]);
  const estimate = useWorkEstimate(engine, scenarioJson, checked && errors.length === 0);

  const runner = useRunner(engine);
  const { start } = runner;
  const comparison = useComparison(engine);
  const comparing = comparison.group.phase === 'running';
  const blocked = comparing
    ? 'A comparison is running (cancel it to run the scenario).'
    : !checked
    ? 'Checking the scenario…'
    : errors.length > 0
      ? `Run is disabled: the scenario has ${errors.length === 1 ? 'a problem' : `${errors.length} problems`} (listed under Scenario).`
      : null;
  const run = useCallback(() => start(scenarioJson), [start, scenarioJson]);
  const stale = runner.record !== null && runner.record.scenarioJson !== scenarioJson;

  const group = presets.find((p) => presetName(p.file) === preset)?.group ?? null;
  const sweepGroup = group ?? presetGroups(presets)[0] ?? null;
  const sweepPresets = useMemo(() => groupPresets(presets, sweepGroup), [presets, sweepGroup]);
  const record = runner.record;
  const addCurrent = useMemo(() => (record ? () => comparison.add(record.results) : null), [record, comparison]);
  const { runGroup } = comparison;
  const compareGroup = useMemo(() => {
    if (group === null) return null;
    const members = groupPresets(presets, group);
    return () =>
      runGroup(() => Promise.all(members.map(async (p) => ({ title: p.title, json: await fetchText(`presets/${p.file}`) }))));
  }, [group, presets, runGroup]);
  const sweepEngine = useMemo((): (() => SweepEngine) | null => {
    if (createEngine) return createEngine;
    const { atLoad } = engine;
    // Without a factory the sweep shares the page's engine (one point at a time).
    return atLoad ? () => ({ run: engine.run.bind(engine), atLoad: atLoad.bind(engine) }) : null;
  }, [createEngine, engine]);
  const readPreset = useCallback((file: string) => fetchText(`presets/${file}`), []);

  return (
    <>
      <div className="toolbar">
        <RunControls state={runner.state} blocked={blocked} onRun={run} onCancel={runner.cancel} />
        <WorkEstimateNote estimate={estimate} />
        <PresetMenu presets={presets} current={preset} onOpen={(name) => onOpenPreset?.(name)} />
        {onOpenPreset ? (
          <button type="button" onClick={() => onOpenPreset(NETWORK_STARTER)} title="Start a network of your own from one small switch">
            New network
          </button>
        ) : null}
        <button
          type="button"
          onClick={() => setAnimating(true)}
          disabled={animating || scenario.model.kind !== 'link_lab'}
          title={scenario.model.kind !== 'link_lab' ? 'Decision animations show one output port of the link lab' : undefined}
        >
          Animate decisions
        </button>
        <SharePanel url={url} />
      </div>
      {animating ? (
        <main className="lab-animation">
          <AnimationView engine={engine} scenario={scenario} onClose={() => setAnimating(false)} />
        </main>
      ) : (
        <>
          <main className="lab">
            <section className="panel editor" aria-labelledby="scenario-title">
              <div className="panel-head">
                <h2 id="scenario-title">Scenario</h2>
                <ScenarioFiles scenario={scenario} onOpen={onOpenFile} onError={onError} />
              </div>
              {/* Only show the errors of the JSON they belong to (an older answer would point at moved fields). */}
              <ErrorSummary errors={checked ? errors : []} scenario={scenario} />
              <FieldErrorsContext.Provider value={byPath}>
                <EditorEngineContext.Provider value={engine}>
                  <ScenarioEditor scenario={scenario} onEdit={onEdit} validate={validate} />
                </EditorEngineContext.Provider>
              </FieldErrorsContext.Provider>
            </section>
            <section className="panel results" aria-labelledby="results-title">
              <h2 id="results-title">Results</h2>
              <ResultsPanel record={runner.record} stale={stale} />
            </section>
          </main>
          <div className="lab-wide">
            <section className="panel compare" aria-labelledby="compare-title">
              <h2 id="compare-title">Comparison</h2>
              <ComparePanel
                comparison={comparison}
                onAddCurrent={addCurrent}
                onCompareGroup={compareGroup}
                group={group}
                busy={runner.state.phase === 'running'}
              />
            </section>
            {sweepEngine && sweepPresets.length > 0 ? (
              <section className="panel sweep" aria-labelledby="sweep-title">
                <h2 id="sweep-title">Sweep: throughput vs offered load{sweepGroup ? ` (${sweepGroup})` : ''}</h2>
                <SweepPanel presets={sweepPresets} readPreset={readPreset} createEngine={sweepEngine} group={sweepGroup} />
              </section>
            ) : null}
          </div>
        </>
      )}
    </>
  );
}
