// Bundled presets: the list in `presets/index.json` (served next to the page), opening a
// preset by name (`#preset=r1-dtable` in the address) and the groups of presets that
// belong together (the schedulers of one reference scenario).

/** One preset of `presets/index.json`. */
export interface PresetInfo {
  /** File name under `presets/`, e.g. `r1-dtable.json`. */
  file: string;
  /** Title shown in the menu. */
  title: string;
  /** Group (e.g. `R1`): presets of a group share their traffic and differ in scheduler. */
  group: string | null;
}

/** Fetches a text file relative to the page; rejects on HTTP errors. */
export type FetchText = (url: string) => Promise<string>;

/** The browser's fetch, relative to the document (works from any sub-path). */
export const fetchText: FetchText = async (url) => {
  const response = await fetch(new URL(url, document.baseURI));
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  // Single-page hosts answer a missing file with the page itself (200, HTML): a JSON file
  // that comes back as HTML does not exist (it is not a "JSON syntax error").
  if (url.endsWith('.json') && (response.headers.get('content-type') ?? '').includes('text/html')) {
    throw new Error(`${url}: not found (the server answered with a web page)`);
  }
  return response.text();
};

/** The name of a preset file (`r1-dtable.json` → `r1-dtable`). */
export function presetName(file: string): string {
  return file.replace(/\.json$/, '');
}

/** Reads and checks `presets/index.json`. */
export function parsePresetIndex(text: string): PresetInfo[] {
  const raw: unknown = JSON.parse(text);
  if (typeof raw !== 'object' || raw === null || !('presets' in raw) || !Array.isArray(raw.presets)) {
    throw new Error('presets/index.json must be {"presets": [...]}');
  }
  return raw.presets.map((p: unknown, i: number): PresetInfo => {
    if (typeof p !== 'object' || p === null) throw new Error(`preset ${i} is not an object`);
    const { file, title, group } = p as Record<string, unknown>;
    if (typeof file !== 'string' || !/^[A-Za-z0-9_.-]+\.json$/.test(file)) throw new Error(`preset ${i}: bad file name`);
    if (typeof title !== 'string') throw new Error(`preset ${i}: title must be text`);
    if (group !== null && group !== undefined && typeof group !== 'string') throw new Error(`preset ${i}: group must be text or null`);
    return { file, title, group: typeof group === 'string' ? group : null };
  });
}

/** Loads the preset list. */
export async function loadPresetIndex(fetcher: FetchText = fetchText): Promise<PresetInfo[]> {
  return parsePresetIndex(await fetcher('presets/index.json'));
}

/** The preset a hash names (`#preset=r1-dtable`, also with other parameters), else null. */
export function presetFromHash(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const name = params.get('preset');
  return name && /^[A-Za-z0-9_.-]+$/.test(name) ? presetName(name) : null;
}

/** The presets of `group`, in index order. */
export function groupPresets(presets: readonly PresetInfo[], group: string | null): PresetInfo[] {
  return group === null ? [] : presets.filter((p) => p.group === group);
}

/** The groups of the index, in first-seen order. */
export function presetGroups(presets: readonly PresetInfo[]): string[] {
  const out: string[] = [];
  for (const p of presets) if (p.group !== null && !out.includes(p.group)) out.push(p.group);
  return out;
}
