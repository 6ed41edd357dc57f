import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../generated';
import { defaultScenario } from '../state/scenario';
import {
  LinkError,
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

  it('leaves the scenario format version to the engine (old versions pass through)', () => {
    const old = '{"version":0,"name":"old"}';
    expect(decodeHash(`v=1&s=${payloadOf(old)}`)).toBe(old);
  });
});
