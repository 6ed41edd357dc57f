// An engine for tests: every method of `Engine`, each answering what the test gives it or,
// by default, an outcome that says the method was not faked (so a test that reaches an
// unexpected call sees it on screen instead of hanging).
import type { Engine } from './protocol';

type Outcomes = Omit<Engine, 'version' | 'validate' | 'meanCi90'>;

const notFaked = (name: string) => async () => ({ status: 'crashed' as const, message: `${name}: not faked in this test` });

/** An `Engine` whose methods are `overrides` where given, defaults elsewhere. */
export function fakeEngine(overrides: Partial<Engine> = {}): Engine {
  const outcomes: Outcomes = {
    load: notFaked('load'),
    workEstimate: notFaked('workEstimate'),
    serviceList: notFaked('serviceList'),
    startingScheduler: notFaked('startingScheduler'),
    schedulerWeights: notFaked('schedulerWeights'),
    atLoad: notFaked('atLoad'),
    atPoint: notFaked('atPoint'),
    frameTrace: notFaked('frameTrace'),
    design: notFaked('design'),
    evaluate: notFaked('evaluate'),
    opensmExport: notFaked('opensmExport'),
    designExport: notFaked('designExport'),
    opafmImport: notFaked('opafmImport'),
    opensmParse: notFaked('opensmParse'),
    run: notFaked('run'),
    trace: notFaked('trace'),
  };
  return {
    version: async () => 'fake engine',
    validate: async () => null,
    meanCi90: async (samples) => samples.map(() => [Number.NaN, Number.NaN]),
    ...outcomes,
    ...overrides,
  };
}
