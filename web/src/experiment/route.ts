// A study's place in the address: `#view=study&id=r2&loads=0.76,0.8,…&seeds=10&seed=1&us=1000`
// (or a registered alias: `#view=r2&…`).
// Every sweep parameter travels in the hash, so a link reopens the view with the same
// sweep, and re-running it gives the same numbers (runs are deterministic per seed).
import { decodePayload, encodeJsonPayload } from '../share/link';
import { parseAxisValues, type AxisKind } from './study';

/** The hash parameter naming the view (shared with the animation's `view=animate`). */
export const VIEW_PARAM = 'view';
/** The generic experiment view: `#view=study&id=<study>&…`. */
export const STUDY_VIEW = 'study';

/** The hash (without `#`) that opens study `id` in the experiment view. */
export const studyPrefix = (id: string) => `${VIEW_PARAM}=${STUDY_VIEW}&id=${encodeURIComponent(id)}`;

/** Most seeds per point (the engine's sweep limit is 1000; a browser sweep stays smaller). */
export const MAX_SEEDS = 100;
/** Largest first seed: the seeds of a sweep must stay at most 2^53 - 1. */
export const MAX_FIRST_SEED = Number.MAX_SAFE_INTEGER - MAX_SEEDS;
/** Longest simulated time per run, in µs (1 s). */
export const MAX_DURATION_US = 1_000_000;

/** The parameters a link may carry (anything else means the link was damaged or cut). */
const KNOWN = new Set([VIEW_PARAM, 'id', 'loads', 'seeds', 'seed', 'us', 'panels', 'video', 'trace']);

/** The parameters of a study's sweep. */
export interface StudyParams {
  /** Total offered loads (fractions of the link), increasing. */
  loads: number[];
  /** Replications (seeds) per point. */
  seeds: number;
  /** First seed (`seed, seed + 1, …`), or null for each preset's own seed. */
  firstSeed: number | null;
  /** Simulated time per run in µs, or null for each preset's own. */
  durationUs: number | null;
  /** A grouped study: the panels run (indices into its panels, increasing); null for an ungrouped study. */
  panels: number[] | null;
}

/** What a study's hash falls back to. */
export interface StudyDefaults {
  loads: readonly number[];
  seeds: number;
  durationUs?: number | null;
  /** What `loads` holds (default: total offered loads). */
  axis?: AxisKind;
  /** A grouped study: the panels run by default (null or absent: ungrouped). */
  panels?: readonly number[] | null;
  /** A grouped study: how many panels it has. */
  panelCount?: number;
}

/**
 * The video source of the sweep: the presets' synthetic model, or an uploaded frame-size
 * trace. The link carries the trace (deflated, base64url, `trace=`) only when it is at most
 * 32 KiB of text; a bigger one leaves `video=trace` without it (the view asks for the file).
 */
export interface StudyVideo {
  source: 'synthetic' | 'trace';
  /** The trace text carried by the link (null: none). */
  trace: string | null;
}

/** A trace's text as the link's `trace=` value (deflated JSON string, base64url). */
export function encodeTrace(text: string): string {
  return encodeJsonPayload(text);
}

/** The trace text of a link's `trace=` value; throws when it is damaged. */
export function decodeTrace(payload: string): string {
  const v = JSON.parse(decodePayload(payload)) as unknown;
  if (typeof v !== 'string') throw new Error('it is not a text');
  return v;
}

/** A study's sweep by default: its loads and seeds, each preset's seed and duration. */
export function defaultParams(defaults: StudyDefaults): StudyParams {
  return {
    loads: [...defaults.loads],
    seeds: defaults.seeds,
    firstSeed: null,
    durationUs: defaults.durationUs ?? null,
    panels: defaults.panels ? [...defaults.panels] : null,
  };
}

/** Why a choice of panels is not usable (`count` panels in the study), or null. */
export function panelsProblem(panels: readonly number[], count: number): string | null {
  if (panels.length === 0) return 'Choose at least one panel to run.';
  return panels.every((p) => Number.isInteger(p) && p >= 0 && p < count) && new Set(panels).size === panels.length
    ? null
    : `Panels are numbers from 0 to ${count - 1}, each once.`;
}

/** Why a seed count is not usable, or null. */
export function seedsProblem(seeds: number): string | null {
  return Number.isInteger(seeds) && seeds >= 1 && seeds <= MAX_SEEDS ? null : `Seeds per point must be a whole number from 1 to ${MAX_SEEDS}.`;
}

/** Why a first seed is not usable, or null. */
export function firstSeedProblem(seed: number | null): string | null {
  return seed === null || (Number.isInteger(seed) && seed >= 0 && seed <= MAX_FIRST_SEED)
    ? null
    : `The first seed must be a whole number from 0 to ${MAX_FIRST_SEED} (or empty for each preset’s seed).`;
}

/** Why a duration is not usable, or null. */
export function durationProblem(us: number | null): string | null {
  return us === null || (Number.isInteger(us) && us >= 1 && us <= MAX_DURATION_US)
    ? null
    : `The simulated time per run must be a whole number of µs from 1 to ${MAX_DURATION_US} (or empty for each preset’s).`;
}

/**
 * The sweep parameters of a study's hash. Missing parameters take their defaults; unusable ones
 * also do, and `problems` says which (so a damaged link still opens the view).
 */
export function parseStudyHash(
  hash: string,
  defaults: StudyDefaults,
): { params: StudyParams; problems: string[]; video: StudyVideo } {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const params = defaultParams(defaults);
  const problems: string[] = [];
  // A link is written with every parameter (`studyHash`): one with some but not all was cut
  // or edited, and whatever it lacks falls back to the study's defaults, which must be said.
  const unknown = [...q.keys()].filter((k) => !KNOWN.has(k));
  const grouped = defaults.panels !== undefined && defaults.panels !== null;
  const written = ['loads', 'seeds', 'seed', 'us', ...(grouped ? ['panels'] : [])];
  const missing = written.filter((k) => !q.has(k));
  if (unknown.length > 0 || (missing.length > 0 && missing.length < written.length)) {
    problems.push(
      `The link looks cut off or edited${unknown.length > 0 ? ` (it has ${unknown.map((k) => `“${k}”`).join(', ')})` : ''}${
        missing.length > 0 ? `: it does not say ${missing.join(', ')}, so the study’s defaults are used for them` : ''
      }. Copy the whole link again to reproduce the sweep.`,
    );
  }
  const loads = q.get('loads');
  if (loads !== null) {
    const parsed = parseAxisValues(loads, defaults.axis ?? 'load');
    if (parsed.error) problems.push(`loads: ${parsed.error}`);
    else params.loads = parsed.loads;
  }
  const number = (name: string): number | null | undefined => {
    const text = q.get(name);
    if (text === null) return undefined;
    if (text.trim() === '') return null;
    return /^\d+$/.test(text.trim()) ? Number(text) : NaN;
  };
  const seeds = number('seeds');
  if (seeds !== undefined) {
    const p = seeds === null ? seedsProblem(NaN) : seedsProblem(seeds);
    if (p || seeds === null) problems.push(`seeds: ${p}`);
    else params.seeds = seeds;
  }
  const seed = number('seed');
  if (seed !== undefined) {
    const p = firstSeedProblem(seed);
    if (p) problems.push(`seed: ${p}`);
    else params.firstSeed = seed;
  }
  const us = number('us');
  if (us !== undefined) {
    const p = durationProblem(us);
    if (p) problems.push(`us: ${p}`);
    else params.durationUs = us;
  }
  const panels = q.get('panels');
  if (panels !== null && grouped) {
    const list = panels.trim() === '' ? [] : panels.split(',').map((t) => (/^\d+$/.test(t.trim()) ? Number(t) : NaN));
    const p = panelsProblem(list, defaults.panelCount ?? 0);
    if (p) problems.push(`panels: ${p}`);
    else params.panels = [...list].sort((a, b) => a - b);
  }
  const video: StudyVideo = { source: 'synthetic', trace: null };
  const source = q.get('video');
  if (source === 'trace') {
    video.source = 'trace';
    const payload = q.get('trace');
    if (payload !== null) {
      try {
        video.trace = decodeTrace(payload);
      } catch (e) {
        problems.push(`trace: the link’s frame-size trace is damaged (${e instanceof Error ? e.message : String(e)}); upload it again.`);
      }
    }
  } else if (source !== null && source !== 'synthetic') {
    problems.push(`video: “${source}” is not a video source (synthetic or trace).`);
  }
  return { params, problems, video };
}

/**
 * The hash (without `#`) of a study's view (`prefix`, e.g. `studyPrefix(id)`) with `params` (defaults written too, so a link is
 * explicit); with a trace source, `video=trace` and, when given, the encoded trace
 * (`tracePayload`, from `encodeTrace`).
 */
export function studyHash(prefix: string, params: StudyParams, video?: { source: StudyVideo['source']; tracePayload: string | null }): string {
  const parts = [prefix, `loads=${params.loads.join(',')}`, `seeds=${params.seeds}`];
  // Written even when empty (each preset's), so a cut link is recognised (`parseStudyHash`).
  parts.push(`seed=${params.firstSeed ?? ''}`, `us=${params.durationUs ?? ''}`);
  if (params.panels !== null) parts.push(`panels=${params.panels.join(',')}`);
  if (video?.source === 'trace') {
    parts.push('video=trace');
    if (video.tracePayload !== null) parts.push(`trace=${video.tracePayload}`);
  }
  return parts.join('&');
}
