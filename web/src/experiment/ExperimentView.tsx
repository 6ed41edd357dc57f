// The experiment view: runs any study described as data (`public/studies/<id>.json`): its
// configurations swept over the axis with several seeds per point on several workers, with
// a time estimate, progress, cancel, 90% confidence bands and the study's plots. The sweep
// parameters live in the URL (`route.ts`).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Engine, SweepEngine } from '../engine/client';
import { fetchText } from '../presets/presets';
import { SharePanel } from '../share/SharePanel';
import { urlWithHash } from '../share/link';
import { useHashSync } from '../state/useHashSync';
import { ExperimentResults } from './ExperimentResults';
import { PointProgress } from './ResultTables';
import { defaultPanelIndices, panelsOf, selectedConfigurations } from './groups';
import { PanelChooser } from './PanelChooser';
import {
  durationProblem,
  encodeTrace,
  firstSeedProblem,
  panelsProblem,
  parseStudyHash,
  seedsProblem,
  studyHash,
  studyPrefix,
  type StudyParams,
} from './route';
import { estimateSweepSeconds, formatEstimate, loadStudy, parseAxisValues, type AxisKind, type Study } from './study';
import { MAX_RUNS, useSweep, workersFor } from './useSweep';
import { useVideoTrace } from './useVideoTrace';
import { VideoSource } from './VideoSource';
import './experiment.css';
import { SAMPLE_TRACE_PATH, traceFitsLink, withVideoTrace } from './videoTrace';

interface Props {
  /** The page's engine (statistics; runs too when there is no worker factory). */
  engine: Engine;
  /** Makes an engine worker for the sweep (one per slot, disposed at the end). */
  createEngine?: () => SweepEngine;
  /** The study's name (`studies/<id>.json`). */
  studyId: string;
  /** The hash before the parameters (`view=study&id=…`, or a registered alias such as `view=r2`). */
  prefix: string;
  /** Reads a preset's JSON text by name (default: `presets/<name>.json` next to the page). */
  readPreset?: (name: string) => Promise<string>;
  /** Reads a file next to the page (default: fetch), for the study. */
  readFile?: (url: string) => Promise<string>;
  /** The hash the view was opened with (default: the address's). */
  initialHash?: string;
  /** Reads the sample frame-size trace (default: `traces/sample-video.txt` next to the page). */
  readSampleTrace?: () => Promise<string>;
}

const defaultReadPreset = (name: string) => fetchText(`presets/${name}.json`);
const defaultReadSample = () => fetchText(SAMPLE_TRACE_PATH);

/** Loads the study, then shows it (or why it cannot). */
export function ExperimentView(props: Props) {
  const { studyId, readFile = fetchText } = props;
  const [state, setState] = useState<{ id: string; study: Study | null; error: string | null } | null>(null);
  useEffect(() => {
    let live = true;
    loadStudy(studyId, readFile).then(
      (study) => live && setState({ id: studyId, study, error: null }),
      (e: unknown) => live && setState({ id: studyId, study: null, error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [studyId, readFile]);
  if (!state || state.id !== studyId) {
    return (
      <main className="experiment-view" aria-busy="true">
        <p className="note">Loading the study “{studyId}”…</p>
      </main>
    );
  }
  if (!state.study) {
    return (
      <main className="experiment-view" aria-label="Experiment">
        <div className="banner error" role="alert">
          {state.error}
        </div>
      </main>
    );
  }
  return <StudyExperiment {...props} study={state.study} />;
}

interface Fields {
  loads: string;
  seeds: string;
  seed: string;
  us: string;
  /** A grouped study's panels to run (null: ungrouped). */
  panels: number[] | null;
}

const fieldsOf = (p: StudyParams): Fields => ({
  loads: p.loads.join(', '),
  seeds: String(p.seeds),
  seed: p.firstSeed === null ? '' : String(p.firstSeed),
  us: p.durationUs === null ? '' : String(p.durationUs),
  panels: p.panels,
});

const wholeOrNull = (text: string): number | null => (text.trim() === '' ? null : /^\d+$/.test(text.trim()) ? Number(text) : NaN);

/** The parameters in the form, and a problem per field. */
function readFields(f: Fields, axis: AxisKind, panelCount: number) {
  const loads = parseAxisValues(f.loads, axis);
  const seeds = /^\d+$/.test(f.seeds.trim()) ? Number(f.seeds) : NaN;
  const firstSeed = wholeOrNull(f.seed);
  const durationUs = wholeOrNull(f.us);
  const problems = {
    loads: loads.error,
    seeds: seedsProblem(seeds),
    seed: firstSeedProblem(firstSeed),
    us: durationProblem(durationUs),
    panels: f.panels === null ? null : panelsProblem(f.panels, panelCount),
  };
  const ok = Object.values(problems).every((p) => p === null);
  const params: StudyParams | null = ok ? { loads: loads.loads, seeds, firstSeed, durationUs, panels: f.panels } : null;
  return { params, problems };
}

function StudyExperiment({ engine, createEngine, study, prefix, readPreset = defaultReadPreset, initialHash, readSampleTrace = defaultReadSample }: Props & { study: Study }) {
  const id = study.id;
  const panelNames = useMemo(() => panelsOf(study), [study]);
  const defaults = useMemo(
    () => ({ loads: study.axis.values, seeds: study.seeds, durationUs: study.durationUs, axis: study.axis.kind, panels: defaultPanelIndices(study), panelCount: panelsOf(study).length }),
    [study],
  );
  const [initial] = useState(() => parseStudyHash(initialHash ?? window.location.hash, defaults));
  const [fields, setFields] = useState<Fields>(() => fieldsOf(initial.params));
  const [linkProblems, setLinkProblems] = useState<string[]>(initial.problems);
  // The first configuration's preset: the video class a trace replaces and the duration of the estimate.
  const [firstPreset, setFirstPreset] = useState<string | null>(null);
  const firstName = study.configurations[0]?.preset ?? '';
  useEffect(() => {
    let live = true;
    readPreset(firstName).then(
      (json) => live && setFirstPreset(json),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [readPreset, firstName]);
  const video = useVideoTrace(engine, initial.video, study.videoTraceClass ? firstPreset : null, study.videoTraceClass ?? 'video');
  const sweep = useSweep(engine, createEngine);
  const { phase, running } = sweep;

  const read = readFields(fields, study.axis.kind, panelNames.length);
  const tracePayload = useMemo(
    () => (video.useTrace && video.trace.text.trim() !== '' && traceFitsLink(video.trace.text) ? encodeTrace(video.trace.text) : null),
    [video.useTrace, video.trace.text],
  );
  const hash = read.params ? studyHash(prefix, read.params, study.videoTraceClass ? { source: video.source, tracePayload } : undefined) : null;
  const { setSource, setTrace } = video;
  const onExternal = useCallback(
    (h: string) => {
      const parsed = parseStudyHash(h, defaults);
      setFields(fieldsOf(parsed.params));
      setLinkProblems(parsed.problems);
      setSource(parsed.video.source);
      if (parsed.video.trace !== null) setTrace(parsed.video.trace, 'from the link');
    },
    [defaults, setSource, setTrace],
  );
  useHashSync(hash, onExternal);
  const url = urlWithHash(hash ?? studyHash(prefix, initial.params), window.location);

  const configs = selectedConfigurations(study, read.params?.panels ?? fields.panels);
  const labels = configs.map((c) => study.configurations[c]?.label ?? '');
  const runs = read.params ? labels.length * read.params.loads.length * read.params.seeds : 0;
  const tooMany = runs > MAX_RUNS ? `At most ${MAX_RUNS} runs per sweep (now ${runs}).` : null;
  const canRun = read.params !== null && tooMany === null && !running && video.ready;
  const presetUs = firstPreset ? ((JSON.parse(firstPreset) as { duration_us?: number }).duration_us ?? null) : null;
  const durationUs = read.params?.durationUs ?? presetUs;
  const estimate =
    read.params && durationUs !== null ? estimateSweepSeconds(study, configs, read.params.loads.length, read.params.seeds, durationUs, workersFor(runs)) : null;

  // Keyboard users keep their place: Run disables itself while running, so focus moves to
  // Cancel, and back to Run at the end.
  const runRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const focusWasOnRun = useRef(false);
  useEffect(() => {
    if (running && focusWasOnRun.current) cancelRef.current?.focus();
    if (!running && focusWasOnRun.current && document.activeElement === document.body) {
      runRef.current?.focus();
      focusWasOnRun.current = false;
    }
  }, [running]);

  const start = () => {
    const params = read.params;
    if (!params || !canRun) return;
    focusWasOnRun.current = document.activeElement === runRef.current;
    const traceText = video.useTrace ? video.trace.text : null;
    const chosen = configs.flatMap((c) => study.configurations[c] ?? []);
    sweep.start({
      params,
      axis: study.axis.kind,
      labels,
      configs,
      video: video.note,
      scenarios: async () => {
        let presets: string[];
        try {
          presets = await Promise.all(chosen.map((c) => readPreset(c.preset)));
        } catch (e) {
          const files = chosen.map((c) => `${c.preset}.json`).join(', ');
          throw new Error(`The ${study.short} presets could not be read (${files}): ${e instanceof Error ? e.message : String(e)}`, { cause: e });
        }
        if (traceText === null) return presets;
        try {
          return presets.map((p) => withVideoTrace(p, traceText));
        } catch (e) {
          throw new Error(`The trace could not replace the ${study.videoTraceClass ?? 'video'} class: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
        }
      },
    });
  };

  const set = (k: Exclude<keyof Fields, 'panels'>) => (e: React.ChangeEvent<HTMLInputElement>) => setFields((f) => ({ ...f, [k]: e.target.value }));
  const field = (k: Exclude<keyof Fields, 'panels'>, label: string, hintText: string, input: React.InputHTMLAttributes<HTMLInputElement>) => {
    const problem = read.problems[k];
    return (
      <div className={`field${problem ? ' has-error' : ''}`}>
        <label htmlFor={`${id}-${k}`}>{label}</label>
        <input
          id={`${id}-${k}`}
          value={fields[k]}
          onChange={set(k)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-${k}-error` : `${id}-${k}-hint`}
          {...input}
        />
        {problem ? (
          <div className="field-error" id={`${id}-${k}-error`}>
            {problem}
          </div>
        ) : (
          <div className="hint" id={`${id}-${k}-hint`}>
            {hintText}
          </div>
        )}
      </div>
    );
  };

  return (
    <main className="experiment-view" aria-labelledby={`${id}-title`} data-study={id}>
      <section className="panel" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{study.title}</h2>
        <p className="help">
          {study.description} Configurations: {labels.join(', ')}.
        </p>
        {study.related && study.related.length > 0 ? (
          <nav className="help" aria-label={`Other ${study.short} experiments`} data-testid="related-studies">
            Other experiments:{' '}
            {study.related.map((r, i) => (
              <span key={r.study}>
                {i > 0 ? ' · ' : null}
                <a href={`#${studyPrefix(r.study)}`}>{r.label}</a>
              </span>
            ))}
          </nav>
        ) : null}
        <p className="help">
          Inspect or run one configuration in the link lab:{' '}
          {study.configurations.map((c, i) => (
            <span key={c.preset}>
              {i > 0 ? ' · ' : null}
              <a href={`#preset=${c.preset}`}>{c.label}</a>
            </span>
          ))}
          .
        </p>
        {linkProblems.length > 0 ? (
          <div className="banner warning" role="alert">
            <p>Some parameters of the link could not be read; their defaults are used:</p>
            <ul>
              {linkProblems.map((p, i) => (
                <li key={i}>{p}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <div className="grid sweep-form">
          {field('loads', study.axis.kind === 'load' && /load$/i.test(study.axis.label) ? `${study.axis.label}s (fractions of the link)` : `${study.axis.label} values`, `Separated by commas or spaces; ${study.axis.hint} ${runs} runs in all.`, { type: 'text' })}
          {field('seeds', 'Seeds per point', study.seedsHint, { type: 'number', min: 1, step: 1 })}
          {field('seed', 'First seed', 'Seeds are this, this + 1, …; empty starts at each preset’s seed.', { type: 'number', min: 0, step: 1, placeholder: 'each preset’s' })}
          {field('us', 'Simulated time per run (µs)', 'Empty keeps each preset’s; the warm-up shrinks in proportion.', { type: 'number', min: 1, step: 1, placeholder: 'each preset’s' })}
        </div>
        {study.groups && fields.panels !== null ? (
          <PanelChooser
            prefix={id}
            label={study.groups.panel}
            panels={panelNames}
            chosen={fields.panels}
            onChange={(panels) => setFields((f) => ({ ...f, panels }))}
            problem={read.problems.panels}
          />
        ) : null}
        {study.videoTraceClass ? (
          <VideoSource
            prefix={id}
            className={study.videoTraceClass}
            source={video.source}
            onSource={video.setSource}
            trace={video.trace}
            onTrace={video.setTrace}
            check={video.check}
            vi={video.vi}
            problem={video.problem}
            onSample={() => {
              readSampleTrace().then(
                (text) => video.setTrace(text, 'the sample trace'),
                (e: unknown) => video.setProblem(`The sample trace could not be read: ${e instanceof Error ? e.message : String(e)}`),
              );
            }}
            onFileProblem={video.setProblem}
          />
        ) : null}
        {tooMany ? <div className="field-error">{tooMany}</div> : null}
        <p className="note" data-testid={`${id}-estimate`}>
          {estimate === null
            ? ''
            : `${runs} runs on ${workersFor(runs)} ${workersFor(runs) === 1 ? 'worker' : 'workers'}: ${formatEstimate(estimate)} on a 2-core machine.`}
        </p>
        <div className="row">
          <button type="button" className="primary" ref={runRef} disabled={!canRun} onClick={start}>
            Run {study.short} sweep
          </button>
          {running ? (
            <button type="button" ref={cancelRef} onClick={sweep.cancel}>
              Cancel
            </button>
          ) : null}
          <span className="run-progress" data-testid={`${id}-progress`} hidden={!running}>
            <progress max={1} value={sweep.progress} aria-label={`${study.short} sweep progress`} />
          </span>
          <span role="status" aria-live="polite" className="note" data-testid={`${id}-status`}>
            {phase.phase === 'running'
              ? `Running: ${phase.finished} of ${phase.total} runs (${phase.workers} ${phase.workers === 1 ? 'worker' : 'workers'})`
              : phase.phase === 'done'
                ? `Done: ${phase.total} runs in ${phase.seconds.toFixed(1)} s.`
                : phase.phase === 'cancelled'
                  ? `Cancelled: ${phase.finished} of ${phase.total} runs finished.`
                  : phase.phase === 'failed'
                    ? `Failed: ${phase.message}`
                    : ''}
          </span>
        </div>
        <SharePanel url={url} />
      </section>
      {sweep.plan ? <PointProgress prefix={id} plan={sweep.plan} seedsDone={sweep.seedsDone} points={sweep.points} /> : null}
      {sweep.plan && sweep.points.size > 0 ? <ExperimentResults study={study} plan={sweep.plan} points={sweep.points} cdfRuns={sweep.cdfRuns} hardware={sweep.hardware} /> : null}
    </main>
  );
}
