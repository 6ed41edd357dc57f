// The table designer's state and its conversions: the requirements form (as typed), the
// engine's `Requirements`, the edited table, the share link's design document and OpenSM
// import glue (the link-lab scenario that simulates a table is in `simulation.ts`).
import { ENGINE_LIMITS } from '../generated/limits';
import { parseFabric, toFabricOptions, type FabricForm, type HighForm } from './fabric';
import type { ClassRequirement, DesignEntry, FieldError, OpenSmParsed, Requirements, Technology } from '../generated';

/** One class of the form, as typed (numbers stay text so blanks and drafts survive). */
export interface ClassForm {
  name: string;
  /** Largest distance between entries of the class; '' = no latency need. */
  distance: string;
  /** Wanted share of the link, a fraction (0-1]. */
  share: string;
  /** Class MTU in bytes. */
  mtu: string;
}

/** The requirements form, as typed. */
export interface DesignForm {
  technology: Technology;
  /** Table entries N. */
  entries: string;
  /** General MTU in bytes. */
  gmtu: string;
  /** '' = search. */
  w: string;
  /** '' = search. */
  k: string;
  /** Link data rate in Gb/s (for the worst-case bound and the simulation). */
  linkRate: string;
  classes: ClassForm[];
  /** InfiniBand / Omni-Path fabric-manager settings (absent: defaults). */
  fabric?: FabricForm;
}

/** The technologies, with their names in the UI. */
export const TECHNOLOGIES: readonly { value: Technology; label: string }[] = [
  { value: 'dtable', label: 'DTable (16-bit weights)' },
  { value: 'infiniband', label: 'InfiniBand (VL arbitration)' },
  { value: 'omnipath', label: 'Omni-Path (8-bit weights)' },
  { value: 'as', label: 'Advanced Switching (no weights)' },
];

/** The latency classes of the picker: class c means distance 2^c (1 = 2 … 6 = 64). */
export const LATENCY_DISTANCES: readonly number[] = [2, 4, 8, 16, 32, 64];

/** The latency-class picker's value for a distance text: 'none', '2' … '64', or 'other'. */
export function latencyChoice(distance: string): string {
  const t = distance.trim();
  if (t === '') return 'none';
  return LATENCY_DISTANCES.some((d) => String(d) === t) ? t : 'other';
}

/** The spec's public test vector (multimedia, 7 classes; `shared/spec/20-table-design.md`). */
export function multimediaForm(): DesignForm {
  const c = (name: string, distance: number, mtu: number, share: number): ClassForm => ({
    name,
    distance: String(distance),
    mtu: String(mtu),
    share: String(share),
  });
  return {
    technology: 'dtable',
    entries: '64',
    gmtu: '2048',
    w: '2',
    k: '0.5',
    linkRate: '2',
    classes: [
      c('NC', 2, 192, 0.09375),
      c('VO', 4, 192, 0.046875),
      c('VI', 8, 2048, 0.5),
      c('CL', 16, 2048, 0.203125),
      c('EE', 32, 1024, 0.09375),
      c('BE', 64, 1024, 0.046875),
      c('BK', 64, 1024, 0.015625),
    ],
  };
}

/** The form a fresh designer shows: the multimedia vector with w and k searched. */
export function defaultForm(): DesignForm {
  return { ...multimediaForm(), w: '', k: '' };
}

/** A new class for the form, named so it does not clash with the others. */
export function newClass(form: DesignForm): ClassForm {
  let i = form.classes.length + 1;
  while (form.classes.some((c) => c.name === `C${i}`)) i++;
  return { name: `C${i}`, distance: '', share: '0.05', mtu: form.gmtu.trim() === '' ? '2048' : form.gmtu };
}

/** A number typed in the form: NaN when blank or unreadable. */
/** A typed number ('' and unreadable text give NaN). */
export function num(text: string): number {
  const t = text.trim();
  return t === '' ? Number.NaN : Number(t);
}

/** JSON has no NaN: an unreadable number goes to the engine as null, which names the field. */
function orNull(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}

/**
 * The engine's requirements for the form. Unreadable numbers become null (the engine then
 * names the field); blank w/k are null (searched); a blank distance is null (no need); an
 * unreadable link rate is left out (the form names it).
 */
export function toRequirements(form: DesignForm): Requirements {
  const classes: ClassRequirement[] = form.classes.map((c) => ({
    name: c.name,
    distance: orNull(num(c.distance)),
    mtu_bytes: orNull(num(c.mtu)) as number,
    share: orNull(num(c.share)) as number,
  }));
  const r: Requirements = {
    technology: form.technology,
    entries: orNull(num(form.entries)) as number,
    gmtu_bytes: orNull(num(form.gmtu)) as number,
    w: orNull(num(form.w)),
    k: orNull(num(form.k)),
    classes,
  };
  const rate = num(form.linkRate);
  if (Number.isFinite(rate)) r.link_rate_gbps = rate;
  const fabric = toFabricOptions(form.technology, form.fabric);
  if (fabric) r.fabric = fabric;
  return r;
}

/**
 * Problems the engine cannot see because the text never reaches it as a number (it would
 * be sent as null, or left out): named by the same paths as the engine's errors.
 */
export function formProblems(form: DesignForm): FieldError[] {
  const out: FieldError[] = [];
  const check = (path: string, text: string, blank: string | null) => {
    const t = text.trim();
    if (t === '') {
      if (blank === null) out.push({ path, message: 'must be a number' });
      return;
    }
    if (!Number.isFinite(Number(t))) out.push({ path, message: blank === null ? `must be a number (got ${t})` : `must be a number, or blank for ${blank} (got ${t})` });
  };
  check('entries', form.entries, null);
  check('gmtu_bytes', form.gmtu, null);
  check('w', form.w, 'search');
  check('k', form.k, 'search');
  check('link_rate_gbps', form.linkRate, null);
  const rate = num(form.linkRate);
  if (Number.isFinite(rate) && rate <= 0) out.push({ path: 'link_rate_gbps', message: `must be above 0 Gb/s (got ${rate})` });
  form.classes.forEach((c, i) => {
    check(`classes[${i}].distance`, c.distance, 'no latency need');
    check(`classes[${i}].mtu_bytes`, c.mtu, null);
    check(`classes[${i}].share`, c.share, null);
  });
  return out;
}

/** A weight typed for a table entry: a whole number 0-65535, or null when it is not one. */
export function parseWeight(text: string): number | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return n <= 65_535 ? n : null;
}

/** The table with entry `index` changed (a new array; the others are shared). */
export function setEntry(table: readonly DesignEntry[], index: number, entry: DesignEntry): DesignEntry[] {
  return table.map((e, i) => (i === index ? entry : e));
}

/**
 * The table after the form went from `before` to `after`: when a class was renamed (same
 * classes, a name changed to one no other class has), its entries follow the new name.
 * Other edits leave it as is (a name typed that another class has would merge the two).
 */
export function followRenames(table: readonly DesignEntry[], before: DesignForm, after: DesignForm): readonly DesignEntry[] {
  if (before.classes.length !== after.classes.length) return table;
  const renames = new Map<string, string>();
  before.classes.forEach((c, i) => {
    const to = after.classes[i]?.name;
    const unique = after.classes.filter((o) => o.name === to).length === 1;
    if (to !== undefined && to !== c.name && unique && !after.classes.some((o) => o.name === c.name)) renames.set(c.name, to);
  });
  if (renames.size === 0) return table;
  return table.map((e) => {
    const to = renames.get(e.class);
    return to === undefined ? e : { ...e, class: to };
  });
}

/** The next (or, with `step` -1, previous) class name after `name`, cycling. */
export function cycleClass(names: readonly string[], name: string, step: 1 | -1): string {
  if (names.length === 0) return name;
  const i = names.indexOf(name);
  const next = i < 0 ? 0 : (i + step + names.length) % names.length;
  return names[next] ?? name;
}

/** The entry the keyboard moves to from `index` in a ring of `n` entries, or null for other keys. */
export function moveKey(key: string, index: number, n: number): number | null {
  if (n === 0) return null;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return (index + 1) % n;
    case 'ArrowLeft':
    case 'ArrowUp':
      return (index - 1 + n) % n;
    case 'PageDown':
      return (index + 8) % n;
    case 'PageUp':
      return (index - 8 + n * 8) % n;
    case 'Home':
      return 0;
    case 'End':
      return n - 1;
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------
// The design document: what the share link and the JSON export carry.

/** Version of the design document (inside the link payload). */
export const DESIGN_DOC_VERSION = 1;

/** Requirements as typed plus the edited table (null: not designed yet). */
export interface DesignDoc {
  version: number;
  form: DesignForm;
  table: DesignEntry[] | null;
}

const TECH_VALUES: readonly string[] = TECHNOLOGIES.map((t) => t.value);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads a design document (from a link or a file); the strings say what is wrong. */
export function parseDesignDoc(json: string): { ok: true; doc: DesignDoc } | { ok: false; lines: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    return { ok: false, lines: [`not JSON: ${e instanceof Error ? e.message : String(e)}`] };
  }
  const lines: string[] = [];
  if (!isRecord(raw)) return { ok: false, lines: ['the design must be a JSON object'] };
  if (raw.version !== DESIGN_DOC_VERSION) lines.push(`version: must be ${DESIGN_DOC_VERSION} (got ${JSON.stringify(raw.version)})`);
  const f = raw.form;
  if (!isRecord(f)) return { ok: false, lines: [...lines, 'form: missing'] };
  const text = (obj: Record<string, unknown>, key: string, path: string): string => {
    const v = obj[key];
    if (typeof v === 'string') return v;
    lines.push(`${path}: must be text`);
    return '';
  };
  const technology = f.technology;
  if (typeof technology !== 'string' || !TECH_VALUES.includes(technology)) {
    lines.push(`form.technology: must be one of ${TECH_VALUES.join(', ')}`);
  }
  const classesRaw = Array.isArray(f.classes) ? f.classes : [];
  if (!Array.isArray(f.classes)) lines.push('form.classes: must be a list');
  const classes: ClassForm[] = classesRaw.map((c, i) => {
    if (!isRecord(c)) {
      lines.push(`form.classes[${i}]: must be an object`);
      return { name: '', distance: '', share: '', mtu: '' };
    }
    const p = `form.classes[${i}]`;
    return {
      name: text(c, 'name', `${p}.name`),
      distance: text(c, 'distance', `${p}.distance`),
      share: text(c, 'share', `${p}.share`),
      mtu: text(c, 'mtu', `${p}.mtu`),
    };
  });
  const form: DesignForm = {
    technology: technology as Technology,
    entries: text(f, 'entries', 'form.entries'),
    gmtu: text(f, 'gmtu', 'form.gmtu'),
    w: text(f, 'w', 'form.w'),
    k: text(f, 'k', 'form.k'),
    linkRate: text(f, 'linkRate', 'form.linkRate'),
    classes,
  };
  const fabric = parseFabric(f.fabric, lines);
  if (fabric) form.fabric = fabric;
  let table: DesignEntry[] | null = null;
  if (raw.table !== null && raw.table !== undefined) {
    if (!Array.isArray(raw.table)) lines.push('table: must be a list or null');
    else {
      table = raw.table.map((e, j) => {
        const ok =
          isRecord(e) &&
          typeof e.class === 'string' &&
          (e.weight === null || (typeof e.weight === 'number' && Number.isInteger(e.weight) && e.weight >= 0));
        if (!ok) {
          lines.push(`table[${j}]: must be {"class": name, "weight": whole number or null}`);
          return { class: '', weight: null };
        }
        return { class: e.class as string, weight: e.weight as number | null };
      });
    }
  }
  if (lines.length > 0) return { ok: false, lines };
  return { ok: true, doc: { version: DESIGN_DOC_VERSION, form, table } };
}

// ---------------------------------------------------------------------------------------
// OpenSM import: the engine parses the lines (`OpenSmParsed`); this maps a vlarb_low list
// onto the classes.

/** Entries OpenSM keeps per table. */
export const MAX_VLARB_ENTRIES = ENGINE_LIMITS.iba_max_entries;

/**
 * The table of an OpenSM file for the designed classes (VL i = class i): the `vlarb_low` of
 * the first prefix that sets one, as OpenSM programs it (VL modulo 15, the first 64
 * entries). Problems name the prefix and the entry; notes say what was left aside.
 */
export function tableFromOpenSm(
  parsed: OpenSmParsed,
  names: readonly string[],
): { ok: true; table: DesignEntry[]; notes: string[]; fabric: FabricForm } | { ok: false; lines: string[] } {
  const source = parsed.prefixes.find((p) => p.vlarb_low !== null);
  if (!source || !source.vlarb_low) return { ok: false, lines: ['no vlarb_low line: the low-priority table is what the designer edits'] };
  const name = `${source.prefix}vlarb_low`;
  const list = source.vlarb_low.slice(0, MAX_VLARB_ENTRIES);
  if (list.length === 0) return { ok: false, lines: [`${name}: the table is empty`] };
  const lines: string[] = [];
  const table = list.map(([vl, weight], k) => {
    const programmed = vl % 15;
    const cls = names[programmed];
    if (cls === undefined) {
      lines.push(
        `${name}, entry ${k + 1}: VL ${vl}${programmed !== vl ? ` (programmed as VL ${programmed})` : ''} has no class: the requirements have ${names.length} classes (VL i = class i)`,
      );
    }
    return { class: cls ?? '', weight };
  });
  if (lines.length > 0) return { ok: false, lines };
  const notes: string[] = [];
  const others = parsed.prefixes.filter((p) => p !== source && p.vlarb_low !== null).map((p) => p.prefix);
  if (others.length > 0) notes.push(`Read ${name}; the vlarb_low of ${others.join(', ')} was not used.`);
  if (source.vlarb_low.length > MAX_VLARB_ENTRIES) notes.push(`Only the first ${MAX_VLARB_ENTRIES} entries were read, as OpenSM does.`);
  // The high table, its limit, SL2VL and the prefix become the fabric settings.
  const highList = source.vlarb_high ?? [];
  const emptyHigh = highList.length === 1 && highList[0]?.[0] === 0 && highList[0]?.[1] === 0;
  const high: HighForm[] = [];
  (emptyHigh ? [] : highList.slice(0, MAX_VLARB_ENTRIES)).forEach(([vl, weight], k) => {
    const cls = names[vl % 15];
    if (cls === undefined) lines.push(`${source.prefix}vlarb_high, entry ${k + 1}: VL ${vl} has no class: the requirements have ${names.length} classes (VL i = class i)`);
    else high.push({ class: cls, weight: String(weight) });
  });
  if (lines.length > 0) return { ok: false, lines };
  const fabric: FabricForm = {
    prefix: source.prefix,
    high,
    highLimit: source.high_limit === null ? '' : String(source.high_limit),
    sl2vl: source.sl2vl === null ? null : source.sl2vl.map(String),
  };
  notes.push(
    `Kept ${source.prefix} settings: ${high.length} high-table entries, high limit ${source.high_limit ?? 'unset (0)'}, ` +
      `sl2vl ${source.sl2vl === null ? 'unset (the default)' : source.sl2vl.join(',')}.`,
  );
  return { ok: true, table, notes, fabric };
}
