import type { Scenario } from '../generated';

/** Applies a pure edit to the scenario being edited. */
export type Edit = (edit: (s: Scenario) => Scenario) => void;
