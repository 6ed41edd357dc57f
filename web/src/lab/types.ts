import type { Scenario } from '../generated';
import type { LinkLabScenario } from '../shared/edit';

/**
 * Applies a pure edit to the link lab being edited (the editors of the link lab's scheduler
 * read `model.scheduler`); the edit is skipped when the scenario is not a link lab.
 */
export type LabEdit = (edit: (s: LinkLabScenario) => Scenario) => void;
