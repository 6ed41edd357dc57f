import { describe, expect, it } from 'vitest';
import type { Engine, LoadOutcome } from '../engine/client';
import { encodeHash } from '../share/link';
import { defaultScenario, scenarioFromHash } from './scenario';

/** An engine whose `load` accepts anything with a positive seed (and canonicalises it). */
const engine: Pick<Engine, 'load'> = {
  load: async (json: string): Promise<LoadOutcome> => {
    const doc = JSON.parse(json) as { seed: number };
    if (doc.seed > 0) return { status: 'done', scenarioJson: JSON.stringify(doc, null, 2) };
    return { status: 'invalid', error: { kind: 'invalid', errors: [{ path: 'seed', message: 'must be positive' }] } };
  },
};

describe('scenario from the address', () => {
  it('is the default without a hash', async () => {
    expect(await scenarioFromHash(engine, '')).toEqual({ scenario: defaultScenario() });
  });

  it('is the link scenario when it decodes and loads', async () => {
    const s = { ...defaultScenario(), seed: 42 };
    expect(await scenarioFromHash(engine, `#${encodeHash(s)}`)).toEqual({ scenario: s });
  });

  it('is the default with a problem for damaged and invalid links', async () => {
    const damaged = await scenarioFromHash(engine, '#v=1&s=garbage!!');
    expect(damaged.scenario).toEqual(defaultScenario());
    expect(damaged.problem?.title).toMatch(/damaged/);
    expect(damaged.problem?.lines.join(' ')).toMatch(/base64url/);

    const invalid = await scenarioFromHash(engine, `#${encodeHash({ ...defaultScenario(), seed: 0 })}`);
    expect(invalid.scenario).toEqual(defaultScenario());
    expect(invalid.problem?.title).toMatch(/invalid/);
    expect(invalid.problem?.lines).toEqual(['seed: must be positive']);
  });
});
