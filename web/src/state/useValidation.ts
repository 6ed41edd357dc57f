// Validates the scenario through the worker on every edit. Answers that arrive after a
// newer edit are dropped, so the errors shown always belong to the JSON they name.
import { useEffect, useState } from 'react';
import type { Engine } from '../engine/client';
import type { FieldError } from '../generated';
import { fieldErrors } from '../shared/errors';

export interface Validation {
  /** The scenario JSON these errors belong to (null before the first answer). */
  json: string | null;
  /** Its problems (empty when valid). */
  errors: FieldError[];
}

export function useValidation(engine: Pick<Engine, 'validate'>, json: string): Validation {
  const [validation, setValidation] = useState<Validation>({ json: null, errors: [] });
  useEffect(() => {
    let current = true;
    engine.validate(json).then(
      (error) => {
        if (current) setValidation({ json, errors: fieldErrors(error) });
      },
      (e: unknown) => {
        if (current) setValidation({ json, errors: [{ path: '', message: `cannot validate: ${String(e)}` }] });
      },
    );
    return () => {
      current = false;
    };
  }, [engine, json]);
  return validation;
}
