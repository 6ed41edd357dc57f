// The state of a study's video source: synthetic or an uploaded frame-size trace, the
// engine's check of the trace (debounced while typing; older answers dropped) and what the
// trace would replace (the video class of the first configuration's preset).
import { useEffect, useRef, useState } from 'react';
import type { Engine } from '../engine/client';
import type { StudyVideo } from './route';
import { readTraceCheck, videoClass, type TraceCheck, type VideoClass } from './videoTrace';

export function useVideoTrace(engine: Engine, initial: StudyVideo, firstPreset: string | null, className: string) {
  const [source, setSource] = useState<StudyVideo['source']>(initial.source);
  const [trace, setTrace] = useState<{ text: string; origin: string }>(() => ({
    text: initial.trace ?? '',
    origin: initial.trace === null ? '' : 'from the link',
  }));
  /** The engine's verdict and the text it is about (stale once the text changes). */
  const [checked, setChecked] = useState<{ text: string; result: TraceCheck } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const useTrace = source === 'trace';
  const vi: VideoClass | null = firstPreset === null ? null : videoClass(firstPreset);

  const checkGen = useRef(0);
  useEffect(() => {
    const gen = ++checkGen.current;
    const text = trace.text;
    if (!useTrace || text.trim() === '') return;
    const answer = (result: TraceCheck) => {
      if (checkGen.current === gen) setChecked({ text, result });
    };
    const timer = window.setTimeout(() => {
      engine.frameTrace(text, vi?.frameIntervalUs ?? 40_000).then(
        (outcome) => answer(readTraceCheck(outcome)),
        (e: unknown) => answer({ ok: false, line: null, message: `the engine could not check the trace (${String(e)})` }),
      );
    }, 150);
    return () => window.clearTimeout(timer);
  }, [engine, useTrace, trace.text, vi?.frameIntervalUs]);
  const check = checked && checked.text === trace.text ? checked.result : null;
  const ready = !useTrace || check?.ok === true;
  /** What the points table says of the source (null: synthetic). */
  const note =
    useTrace && check?.ok
      ? `${vi?.name ?? className} replays the frame-size trace ${trace.origin ? `(${trace.origin}, ` : '('}${check.summary.frames} frames), scaled to the synthetic model’s rate`
      : null;
  const update = (text: string, origin: string) => {
    setTrace({ text, origin });
    setProblem(null);
  };
  return { source, setSource, trace, setTrace: update, check, vi, problem, setProblem, useTrace, ready, note };
}
