import { afterEach, describe, expect, it, vi } from 'vitest';
import indexJson from '../../../public/presets/index.json';
import { fetchText, groupPresets, parsePresetIndex, presetFromHash, presetGroups, presetName } from './presets';

describe('presets', () => {
  it('reads the bundled index: default plus the three R1 schedulers', () => {
    const text = JSON.stringify(indexJson);
    const list = parsePresetIndex(text);
    expect(list[0]).toMatchObject({ file: 'default.json', group: null });
    expect(groupPresets(list, 'R1').map((p) => p.file)).toEqual(['r1-as-basic.json', 'r1-iba-weighted.json', 'r1-dtable.json']);
    expect(presetGroups(list)).toEqual(['R1']);
  });

  it('rejects malformed indexes', () => {
    expect(() => parsePresetIndex('[]')).toThrow(/presets/);
    expect(() => parsePresetIndex('{"presets":[{"file":"../x.json","title":"t"}]}')).toThrow(/file name/);
    expect(() => parsePresetIndex('{"presets":[{"file":"x.json","title":3}]}')).toThrow(/title/);
  });

  it('finds the preset of an address', () => {
    expect(presetFromHash('#preset=r1-dtable')).toBe('r1-dtable');
    expect(presetFromHash('#preset=r1-dtable.json')).toBe('r1-dtable');
    expect(presetFromHash('#v=1&s=abc')).toBeNull();
    expect(presetFromHash('#preset=../../etc')).toBeNull();
    expect(presetName('default.json')).toBe('default');
  });
});

describe('fetchText', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a JSON file answered with the page itself (a single-page host’s 404) does not exist', async () => {
    const page = () => Promise.resolve(new Response('<!doctype html><title>qoslab</title>', { status: 200, headers: { 'content-type': 'text/html' } }));
    vi.stubGlobal('fetch', page);
    await expect(fetchText('presets/does-not-exist.json')).rejects.toThrow('presets/does-not-exist.json: not found (the server answered with a web page)');
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('{"a":1}', { status: 200, headers: { 'content-type': 'application/json' } })));
    await expect(fetchText('presets/default.json')).resolves.toBe('{"a":1}');
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('x', { status: 404 })));
    await expect(fetchText('presets/x.json')).rejects.toThrow('presets/x.json: HTTP 404');
  });
});
