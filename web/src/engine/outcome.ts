// Reading an engine `Outcome` that did not finish: its problem in words, or as an
// `EngineError` for the code that places errors next to fields.
import type { EngineError } from '../generated';
import { engineErrorLines } from '../shared/errors';
import type { Unfinished } from './protocol';

/** The problem of an unfinished outcome as an `EngineError` (a crash or a cancel as kind `internal`). */
export function outcomeError(o: Unfinished): EngineError {
  switch (o.status) {
    case 'invalid':
    case 'stopped':
      return o.error;
    case 'crashed':
      return { kind: 'internal', message: `the engine failed: ${o.message}` };
    case 'cancelled':
      return { kind: 'internal', message: 'cancelled' };
  }
}

/** The problem of an unfinished outcome in lines of words. */
export function outcomeLines(o: Unfinished): string[] {
  switch (o.status) {
    case 'invalid':
    case 'stopped':
      return engineErrorLines(o.error);
    case 'crashed':
      return [`The engine failed: ${o.message}`];
    case 'cancelled':
      return ['Cancelled.'];
  }
}
