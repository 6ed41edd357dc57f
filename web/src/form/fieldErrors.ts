// The field problems of the scenario being edited, available to every field by path.
import { createContext, useContext } from 'react';
import type { ErrorsByPath } from '../shared/errors';

const NONE: ErrorsByPath = new Map();

export const FieldErrorsContext = createContext<ErrorsByPath>(NONE);

/** The messages of the field at `path` (empty when it is fine). */
export function useFieldErrors(path: string): readonly string[] {
  return useContext(FieldErrorsContext).get(path) ?? [];
}
