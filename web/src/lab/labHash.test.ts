import { describe, expect, it } from 'vitest';
import { decodeHash } from '../share/link';
import { defaultScenario } from '../state/scenario';
import { labHash } from './LabScreen';

describe('the lab address', () => {
  const preset = defaultScenario();
  const json = JSON.stringify(preset);

  it('names the preset while the scenario is the preset as opened', () => {
    expect(labHash(preset, json, 'r1-dtable', json)).toBe('preset=r1-dtable');
  });

  it('becomes the share link once the scenario is edited', () => {
    const edited = { ...preset, seed: preset.seed + 1 };
    const hash = labHash(edited, JSON.stringify(edited), 'r1-dtable', json);
    expect(hash).toMatch(/^v=1&s=/);
    expect(decodeHash(`#${hash}`)).toBe(JSON.stringify(edited));
  });

  it('is the share link without a preset', () => {
    expect(labHash(preset, json, null, null)).toMatch(/^v=1&s=/);
  });
});
