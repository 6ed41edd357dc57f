import { describe, expect, it } from 'vitest';
import indexJson from '../../../public/presets/index.json';
import { groupPresets, parsePresetIndex, presetFromHash, presetGroups, presetName } from './presets';

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
