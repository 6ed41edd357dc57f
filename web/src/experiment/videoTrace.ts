// A study's "Video source" (`videoTraceClass`, R2's VI): the synthetic MPEG-4 model of the
// presets, or an uploaded frame-size trace replayed by every stream of the video class. The
// engine checks the trace (`parse_frame_trace`); this module reads its answer, swaps the
// video generator of a preset for a `video_trace` generator at the same rate (so the class's
// offered load is unchanged), and
// decides whether the trace travels in the share link. Pure functions: no engine, no DOM.
import { outcomeLines } from '../engine/outcome';
import type { FrameTraceOutcome } from '../engine/protocol';
import type { FrameTraceSummary } from '../generated';


/** Largest trace text (in UTF-16 code units, i.e. characters) carried in a share link: 32 KiB. */
export const TRACE_LINK_MAX_CHARS = 32 * 1024;

/** Where the sample trace lives, next to the page. */
export const SAMPLE_TRACE_PATH = 'traces/sample-video.txt';

/** The engine's summary of a valid trace. */
export type TraceSummary = FrameTraceSummary;

/** The engine's verdict on a trace: a summary, or the (1-based) line and the rule broken. */
export type TraceCheck = { ok: true; summary: TraceSummary } | { ok: false; line: number | null; message: string };

/** Reads the engine's answer (`FrameTraceOutcome`); an engine that failed is reported as a refusal. */
export function readTraceCheck(outcome: FrameTraceOutcome): TraceCheck {
  if (outcome.status !== 'done') return { ok: false, line: null, message: `the engine could not check the trace (${outcomeLines(outcome).join('; ')})` };
  const { summary, error } = outcome.check;
  if (summary) return { ok: true, summary };
  return { ok: false, line: error?.line ?? null, message: error?.message ?? 'the trace was refused' };
}

/** A refusal as one sentence naming the line ("Line 3: …"). */
export function traceErrorText(check: Extract<TraceCheck, { ok: false }>): string {
  const m = check.message;
  return check.line === null ? `${m.charAt(0).toUpperCase()}${m.slice(1)}.` : `Line ${check.line}: ${m}.`;
}

/** What the presets' VI class uses, read from a preset: rate, frame interval and MTU of its synthetic video. */
export interface VideoClass {
  /** Index of the class in `model.classes`. */
  index: number;
  name: string;
  rateBps: number;
  frameIntervalUs: number;
  mtuBytes: number;
  /** The class's offered load per end point (fraction of the link). */
  load: number;
}

interface PresetClass {
  name?: unknown;
  traffic?: { load?: unknown; generator?: Record<string, unknown> } | null;
}

const classesOf = (scenario: unknown): PresetClass[] => {
  const model = (scenario as { model?: { classes?: unknown } } | null)?.model;
  return Array.isArray(model?.classes) ? (model.classes as PresetClass[]) : [];
};

/** The (first) class of a preset whose generator is synthetic video, or null. */
export function videoClass(presetJson: string): VideoClass | null {
  const classes = classesOf(JSON.parse(presetJson));
  for (let index = 0; index < classes.length; index++) {
    const c = classes[index];
    const g = c?.traffic?.generator;
    if (!g || g.kind !== 'video') continue;
    const num = (v: unknown) => (typeof v === 'number' ? v : NaN);
    return {
      index,
      name: typeof c.name === 'string' ? c.name : `class ${index}`,
      rateBps: num(g.rate_bps),
      frameIntervalUs: num(g.frame_interval_us),
      mtuBytes: num(g.mtu_bytes),
      load: num(c.traffic?.load),
    };
  }
  return null;
}

/**
 * The preset with its synthetic video class replaced by streams replaying `trace`: the same
 * frame interval and MTU, every frame scaled so a stream's mean rate is the synthetic
 * model's (`rate_bps`), so the class opens as many connections and offers the same load.
 * Throws when the preset has no synthetic video class.
 */
export function withVideoTrace(presetJson: string, trace: string): string {
  const scenario = JSON.parse(presetJson) as unknown;
  const found = videoClass(presetJson);
  const target = found ? classesOf(scenario)[found.index] : undefined;
  if (!found || !target?.traffic) throw new Error('the preset has no synthetic video class to replace');
  target.traffic.generator = {
    kind: 'video_trace',
    trace,
    frame_interval_us: found.frameIntervalUs,
    rate_bps: found.rateBps,
    mtu_bytes: found.mtuBytes,
  };
  return JSON.stringify(scenario);
}

/** Whether a trace of this text is carried in the share link (at most `TRACE_LINK_MAX_CHARS` characters). */
export function traceFitsLink(trace: string): boolean {
  return trace.length <= TRACE_LINK_MAX_CHARS;
}
