import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../generated';
import { defaultScenario } from '../state/scenario';
import {
  INFLATE_SLICE_BYTES,
  LinkError,
  MAX_JSON_BYTES,
  inflateLimited,
  decodeHash,
  decodePayload,
  encodeHash,
  encodePayload,
  fromBase64Url,
  shareUrl,
  toBase64Url,
  type LinkErrorReason,
} from './link';

function reasonOf(f: () => unknown): LinkErrorReason | 'no error' | 'other error' {
  try {
    f();
    return 'no error';
  } catch (e) {
    return e instanceof LinkError ? e.reason : 'other error';
  }
}

const payloadOf = (text: string) => toBase64Url(deflateSync(new TextEncoder().encode(text), { level: 9 }));

describe('share link codec', () => {
  it('round-trips a scenario exactly', () => {
    const s = defaultScenario();
    const hash = encodeHash(s);
    expect(hash).toMatch(/^v=1&s=[A-Za-z0-9_-]+$/);
    const json = decodeHash(`#${hash}`);
    expect(json).toBe(JSON.stringify(s));
    expect(JSON.parse(json ?? '') as Scenario).toEqual(s);
  });

  it('round-trips non-ASCII names and keeps links short', () => {
    const s = { ...defaultScenario(), name: 'Vidéo → 音声 🎧' };
    expect(JSON.parse(decodePayload(encodePayload(s)))).toEqual(s);
    expect(encodePayload(s).length).toBeLessThan(JSON.stringify(s).length);
  });

  it('uses base64url without padding', () => {
    const bytes = new Uint8Array([0xfb, 0xff, 0xfe, 0x00]);
    const text = toBase64Url(bytes);
    expect(text).toBe('-__-AA');
    expect(Array.from(fromBase64Url(text))).toEqual(Array.from(bytes));
  });

  it('builds the full link from the page address', () => {
    const s = defaultScenario();
    const url = shareUrl(s, { origin: 'https://example.org', pathname: '/qoslab/', search: '' });
    expect(url).toBe(`https://example.org/qoslab/#${encodeHash(s)}`);
  });

  it('reads an empty hash as no scenario', () => {
    expect(decodeHash('')).toBeNull();
    expect(decodeHash('#')).toBeNull();
  });

  it('names what is wrong with damaged links', () => {
    expect(reasonOf(() => decodeHash('#v=1&s=garbage!!'))).toBe('bad-base64');
    expect(reasonOf(() => decodeHash('#v=1&s=A'))).toBe('bad-base64');
    expect(reasonOf(() => decodeHash('#v=1&s=AAAAAAAA'))).toBe('bad-deflate');
    const good = encodePayload(defaultScenario());
    expect(reasonOf(() => decodeHash(`#v=1&s=${good.slice(0, good.length / 2)}`))).toMatch(/bad-deflate|bad-base64/);
    expect(reasonOf(() => decodeHash(`#v=1&s=${payloadOf('{"version": 1,')}`))).toBe('bad-json');
    expect(reasonOf(() => decodeHash(`#v=1&s=${toBase64Url(deflateSync(new Uint8Array([0xff, 0xfe])))}`))).toBe('bad-utf8');
    expect(reasonOf(() => decodeHash('#v=1'))).toBe('missing-payload');
    expect(reasonOf(() => decodeHash('#s=abc'))).toBe('missing-version');
    expect(reasonOf(() => decodeHash('#something-else'))).toBe('missing-version');
  });

  it('refuses unknown link versions, saying which', () => {
    const payload = encodePayload(defaultScenario());
    expect(reasonOf(() => decodeHash(`#v=2&s=${payload}`))).toBe('unknown-version');
    expect(() => decodeHash(`#v=2&s=${payload}`)).toThrow(/link version "2"/);
    expect(reasonOf(() => decodeHash(`#v=&s=${payload}`))).toBe('unknown-version');
  });

  it('refuses payloads that inflate to more than the limit', () => {
    const bomb = toBase64Url(deflateSync(new Uint8Array(9 * 1024 * 1024).fill(32), { level: 9 }));
    expect(reasonOf(() => decodePayload(bomb))).toBe('too-large');
  });

  // Issue 16, defect 7: the cap was checked after inflating everything (a 1 MB link
  // inflated to 770 MB first). The inflater now stops within one slice of the cap.
  it('stops inflating a bomb at the cap, not after inflating it all', () => {
    const raw = deflateSync(new Uint8Array(16 * 1024 * 1024), { level: 9 });
    const stats = { produced: 0 };
    expect(reasonOf(() => inflateLimited(raw, MAX_JSON_BYTES, stats))).toBe('too-large');
    expect(stats.produced).toBeGreaterThan(MAX_JSON_BYTES);
    expect(stats.produced).toBeLessThanOrEqual(MAX_JSON_BYTES + 1040 * INFLATE_SLICE_BYTES + 65_536);
    // A payload under the cap still inflates whole, slice by slice.
    const text = 'x'.repeat(100_000);
    const small = deflateSync(new TextEncoder().encode(text), { level: 9 });
    expect(new TextDecoder().decode(inflateLimited(small))).toBe(text);
    expect(reasonOf(() => inflateLimited(small.subarray(0, small.length - 3)))).toBe('bad-deflate');
  });

  it('leaves the scenario format version to the engine (old versions pass through)', () => {
    const old = '{"version":0,"name":"old"}';
    expect(decodeHash(`v=1&s=${payloadOf(old)}`)).toBe(old);
  });
});
