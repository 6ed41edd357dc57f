// A grouped study (`groups` in the study file, R3): configurations laid out as a panel per
// `panel` value (the topology) and a line per `series` value (the switch model), for one
// class (SL) at a time or every class as small multiples; the form runs the panels chosen.
// Pure functions: no engine, no DOM.
import type { Panel } from '../charts/PanelsChart';
import { pointKey, type Metric, type Points } from './data';
import type { Study } from './study';

/** The distinct values of a configuration field, in the order they first appear. */
function distinct(values: readonly (string | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => typeof v === 'string'))];
}

/** The panels of a grouped study, in file order (empty for an ungrouped one). */
export const panelsOf = (study: Study): string[] => (study.groups ? distinct(study.configurations.map((c) => c.panel)) : []);

/** The series of a grouped study, in file order (empty for an ungrouped one). */
export const seriesOf = (study: Study): string[] => (study.groups ? distinct(study.configurations.map((c) => c.series)) : []);

/** The panels run by default (indices into `panelsOf`): the study's `defaultPanels`, or all; null for an ungrouped study. */
export function defaultPanelIndices(study: Study): number[] | null {
  if (!study.groups) return null;
  const panels = panelsOf(study);
  const wanted = study.groups.defaultPanels;
  return wanted.length > 0 ? panels.flatMap((p, i) => (wanted.includes(p) ? [i] : [])) : panels.map((_, i) => i);
}

/** The configurations a sweep runs (indices into `study.configurations`): those in the chosen panels (every one when `panels` is null). */
export function selectedConfigurations(study: Study, panels: readonly number[] | null): number[] {
  const all = study.configurations.map((_, i) => i);
  if (!study.groups || panels === null) return all;
  const names = panelsOf(study);
  const chosen = new Set(panels.map((i) => names[i]));
  return all.filter((i) => chosen.has(study.configurations[i]?.panel));
}

/** Which class a grouped chart shows: one (its index) or all of them as small multiples. */
export type ClassChoice = number | 'all';

/**
 * The panels of a grouped metric chart: for each chosen panel value (each class of it with
 * `choice = 'all'`, titled “panel · class”), a series per series value (colour by the
 * series' place in the study, so a switch keeps its colour in every panel) with its mean and
 * 90% band at each load. `configs` maps the sweep's configuration index (the points' key)
 * to the study's configuration.
 */
export function groupedPanels(
  study: Study,
  configs: readonly number[],
  loads: readonly number[],
  points: Points,
  metric: Metric,
  choice: ClassChoice,
  scale = 1,
): Panel[] {
  const panels = panelsOf(study);
  const series = seriesOf(study);
  const classNames = [...points.values()][0]?.classes.map((c) => c.name) ?? [];
  const classes = choice === 'all' ? classNames.map((_, i) => i) : [choice];
  const shown = panels.filter((p) => configs.some((c) => study.configurations[c]?.panel === p));
  return shown.flatMap((panel) =>
    classes.map((cls) => ({
      title: choice === 'all' ? `${panel} · ${classNames[cls] ?? ''}` : panel,
      series: series.flatMap((name, colorIndex) => {
        const s = configs.findIndex((c) => study.configurations[c]?.panel === panel && study.configurations[c]?.series === name);
        if (s < 0) return [];
        const pts: [number, number][] = [];
        const band: [number, number, number][] = [];
        loads.forEach((load, li) => {
          const stat = points.get(pointKey(s, li))?.classes[cls]?.[metric];
          if (!stat || stat.mean === null) return;
          pts.push([load, stat.mean / scale]);
          if (stat.ci90 !== null) band.push([load, (stat.mean - stat.ci90) / scale, (stat.mean + stat.ci90) / scale]);
        });
        return [{ name, colorIndex, points: pts, band }];
      }),
    })),
  );
}
