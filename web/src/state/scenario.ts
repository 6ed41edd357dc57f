// Scenarios from outside: the bundled default, share links and files. Everything that
// does not come from the bundle goes through the engine's `load` (migration + validation).
import defaultJson from '../../../public/presets/default.json';
import type { Engine } from '../engine/client';
import type { Scenario } from '../generated';
import type { LinkLabScenario } from '../shared/edit';
import { fetchText, presetFromHash, type FetchText } from '../presets/presets';
import { LinkError, decodeHash } from '../share/link';
import { outcomeLines } from '../engine/outcome';

/** The scenario format version this UI edits. */
export const SCENARIO_VERSION = 1;

function checkedDefault(): LinkLabScenario {
  const raw: unknown = defaultJson;
  if (typeof raw !== 'object' || raw === null || !('version' in raw) || raw.version !== SCENARIO_VERSION) {
    throw new Error(`public/presets/default.json must be scenario format version ${SCENARIO_VERSION}`);
  }
  const s = raw as Scenario;
  if (s.model.kind !== 'link_lab') throw new Error('public/presets/default.json must be a link lab scenario');
  return s as LinkLabScenario;
}

const DEFAULT = checkedDefault();

/** A fresh copy of the default scenario. */
export function defaultScenario(): LinkLabScenario {
  return structuredClone(DEFAULT);
}

/** A scenario to show, and why it is not the one asked for (if it is not). */
export interface Loaded {
  scenario: Scenario;
  /** A problem to show the user; the default scenario was loaded instead. */
  problem?: { title: string; lines: string[] };
  /** The preset it was opened from (`#preset=<name>`), if any. */
  preset?: string;
}

/** Opens the bundled preset `name` (`presets/<name>.json`) through the engine. */
export async function loadPreset(engine: Pick<Engine, 'load'>, name: string, fetcher: FetchText = fetchText): Promise<Loaded> {
  let text: string;
  try {
    text = await fetcher(`presets/${name}.json`);
  } catch (e) {
    return {
      scenario: defaultScenario(),
      problem: { title: `There is no preset “${name}”`, lines: [e instanceof Error ? e.message : String(e)] },
    };
  }
  const loaded = await loadScenarioJson(engine, text);
  if (loaded.ok) return { scenario: loaded.scenario, preset: name };
  return { scenario: defaultScenario(), problem: { title: `The preset “${name}” is invalid`, lines: loaded.lines } };
}

/** Reads scenario JSON from outside through the engine; the lines say what is wrong. */
export async function loadScenarioJson(
  engine: Pick<Engine, 'load'>,
  json: string,
): Promise<{ ok: true; scenario: Scenario } | { ok: false; lines: string[] }> {
  const outcome = await engine.load(json);
  if (outcome.status !== 'done') return { ok: false, lines: outcomeLines(outcome) };
  return { ok: true, scenario: JSON.parse(outcome.scenarioJson) as Scenario };
}

/**
 * The scenario a page address asks for: the default without a hash; a bundled preset for
 * `#preset=<name>`; the link's scenario when it decodes and loads; otherwise the default
 * with a problem naming why.
 */
export async function scenarioFromHash(
  engine: Pick<Engine, 'load'>,
  hash: string,
  fetcher: FetchText = fetchText,
): Promise<Loaded> {
  const preset = presetFromHash(hash);
  if (preset !== null) return loadPreset(engine, preset, fetcher);
  let json: string | null;
  try {
    json = decodeHash(hash);
  } catch (e) {
    const why = e instanceof LinkError ? e.message : String(e);
    return {
      scenario: defaultScenario(),
      problem: { title: 'This link is damaged and cannot be read', lines: [`The link is damaged: ${why}.`] },
    };
  }
  if (json === null) return { scenario: defaultScenario() };
  const loaded = await loadScenarioJson(engine, json);
  if (loaded.ok) return { scenario: loaded.scenario };
  return {
    scenario: defaultScenario(),
    problem: { title: 'This link holds an invalid scenario', lines: loaded.lines },
  };
}
