// The web's copies of engine maths against the engine's own answers
// (`generated/mathsCases.ts`, written by `qoslab gen-types` from the engine's functions).
import { describe, expect, it } from 'vitest';
import { PARETO_MEAN_CASES } from '../generated/mathsCases';
import type { ClassConfig } from '../generated';
import { boundedParetoMean, meanPacketBytes } from './maths';

describe('bounded Pareto mean', () => {
  it('has engine cases, the hard shapes among them', () => {
    const shapes = PARETO_MEAN_CASES.map(([, , a]) => a);
    expect(shapes).toContain(1);
    expect(shapes.some((a) => a < 1e-6)).toBe(true);
  });

  it.each(PARETO_MEAN_CASES.map((c) => [...c]))('lo %d, hi %d, shape %d: the engine says %d', (lo, hi, a, mean) => {
    const web = boundedParetoMean(lo, hi, a);
    expect(Math.abs(web - mean)).toBeLessThanOrEqual(1e-12 * Math.abs(mean));
  });

  it('is what a class of that size distribution shows', () => {
    const [lo, hi, a, mean] = PARETO_MEAN_CASES[0] ?? [0, 0, 0, 0];
    const c = {
      name: 'x',
      traffic: { load: 0.1, arrivals: { kind: 'poisson' }, size: { kind: 'pareto', min_bytes: lo, max_bytes: hi, shape: a } },
    } as unknown as ClassConfig;
    expect(meanPacketBytes(c)).toBeCloseTo(mean, 9);
  });
});
