// The link lab once a scenario is loaded: toolbar (run, share), editor, results.
import { useCallback, useMemo, useState } from 'react';
import { AnimationView } from '../animation/AnimationView';
import { isAnimateHash, withAnimateView } from '../animation/route';
import type { Engine } from '../engine/client';
import type { Scenario } from '../generated';
import { SharePanel } from '../share/SharePanel';
import { encodeHash, urlWithHash } from '../share/link';
import { useHashSync } from '../state/useHashSync';
import { useRunner } from '../state/useRunner';
import { useValidation } from '../state/useValidation';
import { ErrorSummary } from './ErrorSummary';
import { groupByPath } from './errors';
import { FieldErrorsContext } from './fieldErrors';
import { ResultsPanel } from './ResultsPanel';
import { RunControls } from './RunControls';
import { ScenarioEditor } from './ScenarioEditor';
import { ScenarioFiles } from './ScenarioFiles';
import type { Edit } from './types';

interface Props {
  engine: Engine;
  scenario: Scenario;
  onEdit: Edit;
  onOpenFile: (name: string, text: string) => Promise<void>;
  onExternalHash: (hash: string) => void;
  onError: (title: string, lines: string[]) => void;
}

export function LabScreen({ engine, scenario, onEdit, onOpenFile, onExternalHash, onError }: Props) {
  const scenarioJson = useMemo(() => JSON.stringify(scenario), [scenario]);
  const [animating, setAnimating] = useState(() => isAnimateHash(window.location.hash));
  const hash = useMemo(() => withAnimateView(encodeHash(scenario), animating), [scenario, animating]);
  const url = urlWithHash(hash, window.location);
  const onHash = useCallback(
    (h: string) => {
      setAnimating(isAnimateHash(h));
      onExternalHash(h);
    },
    [onExternalHash],
  );
  useHashSync(hash, onHash);

  const validation = useValidation(engine, scenarioJson);
  const checked = validation.json === scenarioJson;
  const errors = validation.errors;
  const byPath = useMemo(() => groupByPath(errors), [errors]);

  const runner = useRunner(engine);
  const { start } = runner;
  const blocked = !checked
    ? 'Checking the scenario…'
    : errors.length > 0
      ? `Run is disabled: the scenario has ${errors.length === 1 ? 'a problem' : `${errors.length} problems`} (listed under Scenario).`
      : null;
  const run = useCallback(() => start(scenarioJson), [start, scenarioJson]);
  const stale = runner.record !== null && runner.record.scenarioJson !== scenarioJson;

  return (
    <>
      <div className="toolbar">
        <RunControls state={runner.state} blocked={blocked} onRun={run} onCancel={runner.cancel} />
        <button type="button" onClick={() => setAnimating(true)} disabled={animating}>
          Animate decisions
        </button>
        <SharePanel url={url} />
      </div>
      {animating ? (
        <main className="lab-animation">
          <AnimationView engine={engine} scenario={scenario} onClose={() => setAnimating(false)} />
        </main>
      ) : (
        <main className="lab">
          <section className="panel editor" aria-labelledby="scenario-title">
            <div className="panel-head">
              <h2 id="scenario-title">Scenario</h2>
              <ScenarioFiles scenario={scenario} onOpen={onOpenFile} onError={onError} />
            </div>
            {/* Only show the errors of the JSON they belong to (an older answer would point at moved fields). */}
            <ErrorSummary errors={checked ? errors : []} scenario={scenario} />
            <FieldErrorsContext.Provider value={byPath}>
              <ScenarioEditor scenario={scenario} onEdit={onEdit} />
            </FieldErrorsContext.Provider>
          </section>
          <section className="panel results" aria-labelledby="results-title">
            <h2 id="results-title">Results</h2>
            <ResultsPanel record={runner.record} stale={stale} />
          </section>
        </main>
      )}
    </>
  );
}
