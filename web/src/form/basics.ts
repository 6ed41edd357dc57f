// The fields every scenario has, whatever its model, and their one edit.
import type { Scenario } from '../generated';

export type BasicField = 'name' | 'description' | 'seed' | 'duration_us' | 'warmup_us';

/** Sets one of the fields every scenario has (a new scenario; `s` is left as it is). */
export function setBasic<K extends BasicField>(s: Scenario, field: K, value: Scenario[K]): Scenario {
  return { ...s, [field]: value };
}
