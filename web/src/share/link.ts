// Share links: the scenario travels in the URL hash as `#v=1&s=<payload>`, where the
// payload is base64url (no padding) of raw DEFLATE (level 9) of the compact UTF-8 JSON
// of the scenario. `v` is the version of this link encoding; the scenario's own format
// version lives inside the JSON and is migrated by the engine's `load`.
import { Inflate, deflateSync } from 'fflate';
import type { Scenario } from '../generated';

/** The link encoding this code writes. */
export const LINK_VERSION = '1';

/** Largest payload accepted, in characters (a scenario is a few hundred bytes compressed). */
export const MAX_PAYLOAD_CHARS = 1_000_000;
/** Largest inflated scenario accepted, in bytes (guards against deflate bombs). */
export const MAX_JSON_BYTES = 8 * 1024 * 1024;

/** Why a link could not be decoded. */
export type LinkErrorReason =
  | 'missing-version'
  | 'unknown-version'
  | 'missing-payload'
  | 'bad-base64'
  | 'bad-deflate'
  | 'too-large'
  | 'bad-utf8'
  | 'bad-json';

/** A link that cannot be decoded; `message` says why in words. */
export class LinkError extends Error {
  readonly reason: LinkErrorReason;

  constructor(reason: LinkErrorReason, message: string) {
    super(message);
    this.name = 'LinkError';
    this.reason = reason;
  }
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** base64url without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes base64url (padding optional); throws a `LinkError` on any bad character or length. */
export function fromBase64Url(text: string): Uint8Array {
  if (!BASE64URL.test(text)) {
    throw new LinkError('bad-base64', 'the data contains characters that are not base64url');
  }
  if (text.length % 4 === 1) {
    throw new LinkError('bad-base64', 'the data has an impossible length (it was probably cut short)');
  }
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  let binary: string;
  try {
    binary = atob(padded);
  } catch {
    throw new LinkError('bad-base64', 'the data is not valid base64url');
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Compressed bytes pushed to the inflater at a time: DEFLATE expands at most ~1032x, so
 * one slice inflates to at most about 1 MiB and the cap stops a bomb within that. */
export const INFLATE_SLICE_BYTES = 1024;

/**
 * Inflates raw DEFLATE `data` incrementally, stopping with a `too-large` LinkError as soon
 * as the output passes `maxBytes` (the output is never built beyond the cap plus one
 * slice). `stats.produced`, when given, receives the bytes inflated (for tests).
 */
export function inflateLimited(
  data: Uint8Array,
  maxBytes: number = MAX_JSON_BYTES,
  stats?: { produced: number },
): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let ended = false;
  const tooLarge = () =>
    new LinkError('too-large', `the scenario would be larger than ${maxBytes / 1024 / 1024} MiB`);
  const inflater = new Inflate((chunk, final) => {
    total += chunk.length;
    if (stats) stats.produced = total;
    if (total > maxBytes) throw tooLarge();
    chunks.push(chunk);
    if (final) ended = true;
  });
  try {
    for (let at = 0; at < data.length && !ended; at += INFLATE_SLICE_BYTES) {
      const end = Math.min(at + INFLATE_SLICE_BYTES, data.length);
      inflater.push(data.subarray(at, end), end === data.length);
    }
    if (data.length === 0) inflater.push(data, true);
  } catch (e) {
    if (e instanceof LinkError) throw e;
    throw new LinkError('bad-deflate', 'the compressed data is damaged');
  }
  if (!ended) throw new LinkError('bad-deflate', 'the compressed data is incomplete');
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The payload (`s=`) for a scenario. */
export function encodePayload(scenario: Scenario): string {
  return encodeJsonPayload(scenario);
}

/** The same payload encoding for any JSON value (the table designer's `d=` uses it). */
export function encodeJsonPayload(value: unknown): string {
  const json = JSON.stringify(value);
  return toBase64Url(deflateSync(new TextEncoder().encode(json), { level: 9 }));
}

/** The scenario JSON text inside a payload; throws a `LinkError` when it is damaged. */
export function decodePayload(payload: string): string {
  if (payload.length > MAX_PAYLOAD_CHARS) {
    throw new LinkError('too-large', `the link is longer than ${MAX_PAYLOAD_CHARS} characters`);
  }
  const bytes = inflateLimited(fromBase64Url(payload));
  let json: string;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new LinkError('bad-utf8', 'the scenario is not UTF-8 text');
  }
  try {
    JSON.parse(json);
  } catch {
    throw new LinkError('bad-json', 'the scenario is not valid JSON');
  }
  return json;
}

/** The hash (without `#`) that carries a scenario: `v=1&s=<payload>`. */
export function encodeHash(scenario: Scenario): string {
  return `v=${LINK_VERSION}&s=${encodePayload(scenario)}`;
}

/**
 * The scenario JSON carried by a location hash (with or without the leading `#`), or null
 * when the hash carries no scenario at all (empty). Throws a `LinkError` for anything else
 * that cannot be read.
 */
export function decodeHash(hash: string): string | null {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (text.trim() === '') return null;
  const params = new URLSearchParams(text);
  const v = params.get('v');
  const s = params.get('s');
  // Only a view parameter (e.g. `view=animate`): no scenario, like an empty hash.
  if (v === null && s === null && [...params.keys()].every((k) => k === 'view')) return null;
  if (v === null) {
    throw new LinkError('missing-version', 'it has no link version (v=)');
  }
  if (v !== LINK_VERSION) {
    throw new LinkError(
      'unknown-version',
      `it uses link version ${JSON.stringify(v)}, which this version of qoslab does not know (it reads version ${LINK_VERSION}); it may come from a newer qoslab`,
    );
  }
  if (s === null || s === '') {
    throw new LinkError('missing-payload', 'it carries no scenario (s=)');
  }
  return decodePayload(s);
}

/** The page address with `hash` (without `#`) as its hash. */
export function urlWithHash(hash: string, location: Pick<Location, 'origin' | 'pathname' | 'search'>): string {
  return `${location.origin}${location.pathname}${location.search}#${hash}`;
}

/** The full share link for a scenario, based on the page's current address. */
export function shareUrl(scenario: Scenario, location: Pick<Location, 'origin' | 'pathname' | 'search'>): string {
  return urlWithHash(encodeHash(scenario), location);
}
