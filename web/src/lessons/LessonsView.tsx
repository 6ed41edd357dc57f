// The lessons: an index (`#view=lessons`) and a lesson in steps
// (`#view=lessons&lesson=<id>&step=<n>`): text, a link that opens a view on a scenario, what
// to look at, and a question checked against a run in the worker.
import { useEffect, useState } from 'react';
import type { Engine } from '../engine/client';
import type { RunResults } from '../generated';
import { engineErrorLines } from '../shared/errors';
import { parseResults } from '../shared/format';
import { fetchText } from '../presets/presets';
import { withDuration } from '../sweep/sweepData';
import './lessons.css';
import { loadLesson, loadLessonIndex, METRIC_WORDS, optionValues, questionOptions, rightOption, type Lesson, type LessonInfo, type LessonQuestion } from './lesson';
import { outcomeLines } from '../engine/outcome';

interface Props {
  engine: Pick<Engine, 'run' | 'atLoad'>;
  /** The address the view was opened at. */
  hash: string;
  /** Reads a file next to the page (lessons, presets). */
  readFile?: (url: string) => Promise<string>;
}

const lessonHash = (id: string, step: number) => `#view=lessons&lesson=${encodeURIComponent(id)}&step=${step + 1}`;

export function LessonsView({ engine, hash, readFile = fetchText }: Props) {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const id = q.get('lesson');
  const step = Math.max(0, (Number.parseInt(q.get('step') ?? '1', 10) || 1) - 1);
  return (
    <main className="lessons-view" aria-labelledby="lessons-title">
      {id === null ? <LessonIndex readFile={readFile} /> : <LessonPage key={id} id={id} step={step} engine={engine} readFile={readFile} />}
    </main>
  );
}

function LessonIndex({ readFile }: { readFile: (url: string) => Promise<string> }) {
  const [state, setState] = useState<{ lessons: LessonInfo[] } | { error: string } | null>(null);
  useEffect(() => {
    let live = true;
    loadLessonIndex(readFile).then(
      (lessons) => live && setState({ lessons }),
      (e: unknown) => live && setState({ error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [readFile]);
  return (
    <section className="panel">
      <h2 id="lessons-title">Lessons</h2>
      <p className="help">
        Each lesson is a few steps: what to open, what to look at, and a question you answer and then check against a short run in
        your browser.
      </p>
      {state === null ? <p className="note">Loading the lessons…</p> : null}
      {state && 'error' in state ? (
        <div className="banner error" role="alert">
          {state.error}
        </div>
      ) : null}
      {state && 'lessons' in state ? (
        <ul className="lesson-index" data-testid="lesson-index">
          {state.lessons.map((l) => (
            <li key={l.id}>
              <a href={lessonHash(l.id, 0)}>{l.title}</a>
              <p className="help">{l.summary}</p>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function LessonPage({ id, step, engine, readFile }: { id: string; step: number; engine: Props['engine']; readFile: (url: string) => Promise<string> }) {
  const [state, setState] = useState<{ lesson: Lesson } | { error: string } | null>(null);
  useEffect(() => {
    let live = true;
    loadLesson(id, readFile).then(
      (lesson) => live && setState({ lesson }),
      (e: unknown) => live && setState({ error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [id, readFile]);
  if (state === null) return <p className="note">Loading the lesson…</p>;
  if ('error' in state) {
    return (
      <section className="panel">
        <h2 id="lessons-title">Lesson</h2>
        <div className="banner error" role="alert">
          {state.error}
        </div>
        <a href="#view=lessons">All lessons</a>
      </section>
    );
  }
  const { lesson } = state;
  const at = Math.min(step, lesson.steps.length - 1);
  const current = lesson.steps[at];
  if (!current) return null;
  return (
    <section className="panel lesson" data-testid="lesson">
      <p className="help">
        <a href="#view=lessons">All lessons</a>
      </p>
      <h2 id="lessons-title">{lesson.title}</h2>
      <nav aria-label="Steps">
        <ol className="lesson-steps">
          {lesson.steps.map((s, i) => (
            <li key={i}>
              <a href={lessonHash(lesson.id, i)} aria-current={i === at ? 'step' : undefined}>
                {s.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <article className="lesson-step" aria-labelledby="lesson-step-title" data-testid="lesson-step">
        <h3 id="lesson-step-title">
          Step {at + 1} of {lesson.steps.length}: {current.title}
        </h3>
        <p>{current.text}</p>
        {current.open ? (
          <p>
            <a className="lesson-open" href={`#${current.open.hash}`}>
              {current.open.label}
            </a>
          </p>
        ) : null}
        {current.look ? (
          <p className="lesson-look">
            <strong>Look at:</strong> {current.look}
          </p>
        ) : null}
        {current.question ? <Question key={`${lesson.id}-${at}`} question={current.question} engine={engine} readFile={readFile} /> : null}
      </article>
      <div className="row">
        {at > 0 ? <a href={lessonHash(lesson.id, at - 1)}>← Previous step</a> : null}
        {at + 1 < lesson.steps.length ? (
          <a href={lessonHash(lesson.id, at + 1)}>Next step →</a>
        ) : (
          <span className="note" data-testid="lesson-end">
            End of the lesson. <a href="#view=lessons">All lessons</a>
          </span>
        )}
      </div>
    </section>
  );
}

type Check =
  | { status: 'idle' }
  | { status: 'running'; done: number; total: number }
  | { status: 'checked'; right: string | null; values: { option: string; value: number | null }[]; seconds: number }
  | { status: 'failed'; message: string };

const show = (q: LessonQuestion, v: number | null) =>
  v === null ? 'no value' : q.metric === 'throughput' ? `${(v * 100).toFixed(1)} % of the link` : `${(v / 1000).toFixed(2)} µs`;

/** Runs a lesson run in the worker: the preset, at its load and duration. */
async function runOne(engine: Props['engine'], readFile: (url: string) => Promise<string>, run: LessonQuestion['runs'][number]): Promise<RunResults> {
  let json = withDuration(await readFile(`presets/${run.preset}.json`), run.durationUs);
  if (run.load !== null) {
    const scaled = await engine.atLoad(json, run.load);
    if (scaled.status !== 'done') throw new Error(`${run.label}: ${outcomeLines(scaled).join('; ')}`);
    json = scaled.scenarioJson;
  }
  const outcome = await engine.run(json, () => undefined);
  if (outcome.status === 'done') return parseResults(outcome.resultsJson);
  if (outcome.status === 'invalid') throw new Error(`${run.label}: ${engineErrorLines(outcome.error).join('; ')}`);
  throw new Error(`${run.label}: ${outcome.status === 'crashed' ? outcome.message : 'cancelled'}`);
}

function Question({ question, engine, readFile }: { question: LessonQuestion; engine: Props['engine']; readFile: (url: string) => Promise<string> }) {
  const [answer, setAnswer] = useState<string | null>(null);
  const [check, setCheck] = useState<Check>({ status: 'idle' });
  const options = questionOptions(question);
  const verify = async () => {
    const started = performance.now();
    try {
      const results: RunResults[] = [];
      for (const run of question.runs) {
        setCheck({ status: 'running', done: results.length, total: question.runs.length });
        results.push(await runOne(engine, readFile, run));
      }
      const values = optionValues(question, results);
      setCheck({ status: 'checked', right: rightOption(question, values), values, seconds: (performance.now() - started) / 1000 });
    } catch (e) {
      setCheck({ status: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
  };
  return (
    <fieldset className="lesson-question" data-testid="lesson-question">
      <legend>{question.text}</legend>
      <div role="radiogroup" aria-label="Your answer" className="row">
        {options.map((o) => (
          <label key={o}>
            <input type="radio" name="lesson-answer" value={o} checked={answer === o} onChange={() => setAnswer(o)} /> {o}
          </label>
        ))}
      </div>
      <div className="row">
        <button type="button" className="primary" disabled={answer === null || check.status === 'running'} onClick={() => void verify()}>
          Check against a run
        </button>
        <span role="status" aria-live="polite" className="note" data-testid="lesson-check-status">
          {check.status === 'running' ? `Running ${check.done + 1} of ${check.total}…` : check.status === 'failed' ? `The check failed: ${check.message}` : ''}
        </span>
      </div>
      {check.status === 'checked' ? (
        <div className={`banner ${check.right === answer ? 'info' : 'warning'}`} data-testid="lesson-verdict">
          <p>
            <strong>{check.right === answer ? 'Right' : 'Not this time'}:</strong> in the run ({check.seconds < 0.1 ? 'under 0.1 s' : `${check.seconds.toFixed(1)} s`}),{' '}
            {check.right ?? 'no option'} has the {question.pick} {METRIC_WORDS[question.metric]}
            {question.class ? ` for ${question.class}` : ''}.
          </p>
          <ul>
            {check.values.map((v) => (
              <li key={v.option}>
                {v.option}: {show(question, v.value)}
              </li>
            ))}
          </ul>
          <p>{question.why}</p>
        </div>
      ) : null}
    </fieldset>
  );
}
