// Import and export glue of the designer: what a pasted or uploaded text is (design JSON,
// requirements JSON as `qoslab design` reads it, or OpenSM lines), what it becomes, and the
// export texts.
import type { Engine } from '../engine/protocol';
import { outcomeLines } from '../engine/outcome';
import type { Design, DesignEntry, Requirements } from '../generated';
import { fabricFromOptions } from './fabric';
import type { Evaluation } from './evaluation';
import { DESIGN_DOC_VERSION, parseDesignDoc, tableFromOpenSm, toRequirements, type DesignDoc, type DesignForm } from './model';
import { ENGINE_LIMITS } from '../generated/limits';

/** What the import needs from the engine. */
export type ImportEngine = Pick<Engine, 'opensmParse' | 'opafmImport'>;

/** An import's outcome: the new form and table plus notes, or the problems (nothing changed). */
export type ImportOutcome =
  | { ok: true; form: DesignForm; table: DesignEntry[] | null; what: string; notes: string[] }
  | { ok: false; lines: string[] };

/** The form for a requirements document (`qoslab design` input), keeping the current link rate. */
export function formFromRequirements(r: Requirements, linkRate: string): DesignForm {
  const t = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
  const rate = r.link_rate_gbps;
  return {
    technology: r.technology,
    entries: t(r.entries),
    gmtu: t(r.gmtu_bytes),
    w: t(r.w),
    k: t(r.k),
    linkRate: rate === null || rate === undefined ? linkRate : String(rate),
    classes: r.classes.map((c) => ({ name: c.name, distance: t(c.distance), share: t(c.share), mtu: t(c.mtu_bytes) })),
    ...(r.fabric ? { fabric: fabricFromOptions(r.fabric) } : {}),
    ...(typeof r.switch_ports === 'number' ? { switchPorts: String(r.switch_ports) } : {}),
  };
}

/**
 * The form and table of a design as `qoslab design` prints it. MTUs come back as whole
 * credits (64 B each), which is what the design used; the wanted shares and distances are
 * the design's.
 */
export function formFromDesign(d: Design, linkRate: string): { form: DesignForm; table: DesignEntry[] } {
  const t = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
  return {
    form: {
      technology: d.technology,
      entries: String(d.entries),
      gmtu: String(d.gmtu_credits * ENGINE_LIMITS.credit_bytes),
      w: t(d.w),
      k: t(d.k),
      linkRate: typeof d.link_rate_gbps === 'number' ? String(d.link_rate_gbps) : linkRate,
      classes: d.classes.map((c) => ({ name: c.name, distance: t(c.distance), share: String(c.wanted_share), mtu: String(c.mtu_credits * ENGINE_LIMITS.credit_bytes) })),
      ...(d.fabric ? { fabric: fabricFromOptions(d.fabric) } : {}),
      ...omnipathPorts(d),
    },
    table: d.table.map((e) => ({ class: e.class, weight: e.weight })),
  };
}

/** An Omni-Path design's switch size, from the registers the engine counted for it. */
function omnipathPorts(d: Design): { switchPorts?: string } {
  const layout = d.technology === 'omnipath' ? d.mappings?.find((m) => m.omnipath_layout)?.omnipath_layout : undefined;
  return layout ? { switchPorts: String(layout.switch_ports) } : {};
}

function looksLikeDesign(v: unknown): v is Design {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.technology === 'string' &&
    typeof o.gmtu_credits === 'number' &&
    Array.isArray(o.table) &&
    Array.isArray(o.classes) &&
    o.classes.every((c) => typeof c === 'object' && c !== null && typeof (c as Record<string, unknown>).mtu_credits === 'number')
  );
}

function looksLikeRequirements(v: unknown): v is Requirements {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.technology === 'string' && Array.isArray(o.classes) && 'entries' in o && !('form' in o);
}

/**
 * Reads an imported text. JSON (first character `{`) is a design document (this page's
 * export or share link), a requirements document or a design (`qoslab design` input and
 * output); anything else is OpenSM lines, parsed
 * by the engine, whose `vlarb_low` becomes the table with VL i = class i of the current
 * form (the form's entries N follow the table; the technology becomes InfiniBand unless it
 * is Omni-Path). Lints and notes come back with the result.
 */
export async function importText(engine: ImportEngine, text: string, form: DesignForm): Promise<ImportOutcome> {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, lines: ['Nothing to import: paste OpenSM lines or design JSON, or choose a file.'] };
  if (trimmed.startsWith('{')) {
    let raw: unknown;
    try {
      raw = JSON.parse(trimmed);
    } catch (e) {
      return { ok: false, lines: [`The JSON cannot be read: ${e instanceof Error ? e.message : String(e)}`] };
    }
    if (looksLikeDesign(raw)) {
      const { form: f, table } = formFromDesign(raw, form.linkRate);
      return { ok: true, form: f, table, what: 'a qoslab design', notes: [`MTUs were read as whole credits of ${ENGINE_LIMITS.credit_bytes} B, as the design used them.`] };
    }
    if (looksLikeRequirements(raw)) {
      return { ok: true, form: formFromRequirements(raw, form.linkRate), table: null, what: 'requirements', notes: ['Press Auto-design to design a table for them.'] };
    }
    const parsed = parseDesignDoc(trimmed);
    if (!parsed.ok) return { ok: false, lines: parsed.lines.map((l) => `Design JSON: ${l}`) };
    return { ok: true, form: parsed.doc.form, table: parsed.doc.table, what: 'design', notes: [] };
  }
  if (trimmed.startsWith('<')) {
    // Omni-Path fabric manager XML: the enabled QOSGroups become the classes.
    const read = await engine.opafmImport(text, JSON.stringify(toRequirements(form)));
    if (read.status !== 'done') return { ok: false, lines: outcomeLines(read) };
    const r = JSON.parse(read.requirementsJson) as Requirements;
    return {
      ok: true,
      form: formFromRequirements(r, form.linkRate),
      table: null,
      what: 'an Omni-Path opafm.xml',
      notes: [
        `${r.classes.length} QOSGroups became classes (shares from Bandwidth, HighPriority groups as high-priority classes sharing what the others leave); distances and MTUs are kept from same-named classes. Press Auto-design.`,
      ],
    };
  }
  const outcome = await engine.opensmParse(text);
  if (outcome.status !== 'done') return { ok: false, lines: outcomeLines(outcome) };
  const parsed = outcome.parsed;
  const names = form.classes.map((c) => c.name);
  const mapped = tableFromOpenSm(parsed, names);
  if (!mapped.ok) return mapped;
  const technology = form.technology === 'omnipath' ? 'omnipath' : 'infiniband';
  const notes = [...parsed.lints.map((l) => `OpenSM warning, ${l.path}: ${l.message}`), ...mapped.notes];
  if (technology !== form.technology) notes.push('The technology was set to InfiniBand (OpenSM configures InfiniBand).');
  return {
    ok: true,
    form: { ...form, technology, entries: String(mapped.table.length), ...(technology === 'infiniband' ? { fabric: mapped.fabric } : {}) },
    table: mapped.table,
    what: 'OpenSM lines',
    notes,
  };
}

/** The design document of the page (share link payload; the JSON export adds readable extras). */
export function designDoc(form: DesignForm, table: DesignEntry[] | null): DesignDoc {
  return { version: DESIGN_DOC_VERSION, form, table };
}

/**
 * The design JSON export: the design document (importable here) plus, for reading and for
 * `qoslab design`, the requirements as the engine takes them and the last evaluation.
 */
export function designJsonText(form: DesignForm, table: DesignEntry[] | null, evaluation: Evaluation | null): string {
  const doc = { ...designDoc(form, table), requirements: toRequirements(form), evaluation };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
