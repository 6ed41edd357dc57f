// The table designer's place in the address: `#view=design&v=1&d=<payload>`, where the
// payload is the share link's encoding (base64url of raw DEFLATE of compact JSON) of the
// design document (requirements as typed + the edited table). `#view=design` alone opens
// the designer on its default form.
import { LINK_VERSION, LinkError, decodePayload, encodeJsonPayload } from '../share/link';
import { parseDesignDoc, type DesignDoc } from './model';

/** The hash parameter naming the view (shared with the animation's `view=animate`). */
export const VIEW_PARAM = 'view';
/** Its value for the designer. */
export const DESIGN = 'design';
/** The parameter carrying the design document. */
export const DESIGN_PARAM = 'd';

function params(hash: string): URLSearchParams {
  return new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
}

/** Whether a location hash (with or without `#`) asks for the designer. */
export function isDesignHash(hash: string): boolean {
  return params(hash).get(VIEW_PARAM) === DESIGN;
}

/** The hash (without `#`) that opens the designer on `doc`. */
export function designHash(doc: DesignDoc): string {
  return `${VIEW_PARAM}=${DESIGN}&v=${LINK_VERSION}&${DESIGN_PARAM}=${encodeJsonPayload(doc)}`;
}

/**
 * The design document a designer hash carries: null when it carries none (`#view=design`
 * alone), the document, or the problems that make it unreadable (in words).
 */
export function designFromHash(hash: string): { ok: true; doc: DesignDoc | null } | { ok: false; lines: string[] } {
  const p = params(hash);
  const payload = p.get(DESIGN_PARAM);
  if (payload === null || payload === '') return { ok: true, doc: null };
  const v = p.get('v');
  if (v !== LINK_VERSION) {
    return {
      ok: false,
      lines: [
        v === null
          ? 'The link has no link version (v=).'
          : `The link uses link version ${JSON.stringify(v)}, which this version of qoslab does not know (it reads version ${LINK_VERSION}).`,
      ],
    };
  }
  let json: string;
  try {
    json = decodePayload(payload);
  } catch (e) {
    return { ok: false, lines: [`The link is damaged: ${e instanceof LinkError ? e.message : String(e)}.`] };
  }
  const parsed = parseDesignDoc(json);
  return parsed.ok ? { ok: true, doc: parsed.doc } : { ok: false, lines: parsed.lines.map((l) => `The design in the link is invalid: ${l}.`) };
}
