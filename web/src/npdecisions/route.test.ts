import { describe, expect, it } from 'vitest';
import { decisionsHash, parseDecisionsHash } from './route';

describe('np decisions address', () => {
  it('round-trips and falls back to R6 PCFQ on bad values', () => {
    const r = { preset: 'r6-wfq', fromUs: 1200, decisions: 30 };
    expect(parseDecisionsHash(`#${decisionsHash(r)}`)).toEqual(r);
    expect(parseDecisionsHash('#view=np-decisions&preset=../x&from=-1&n=99999')).toEqual({ preset: 'r6-pcfq', fromUs: 5000, decisions: 60 });
  });
});
