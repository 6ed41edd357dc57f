// Sweep results as charts and tables see them.
import { csvField } from '../charts/export';
import type { Panel } from '../charts/PanelsChart';
import type { RunResults } from '../generated';
import type { SweepPoint } from './sweepPlan';

/** What one finished point keeps: its load and per-class offered load and throughput. */
export interface PointResult {
  load: number;
  classes: { name: string; offered: number; throughput: number }[];
}

/** The part of a run a sweep keeps. */
export function pointResult(load: number, results: RunResults): PointResult {
  return { load, classes: results.classes.map((c) => ({ name: c.name, offered: c.offered, throughput: c.throughput })) };
}

/** One panel per preset, one line per class: throughput vs total offered load. */
export function sweepPanels(
  titles: readonly string[],
  points: readonly SweepPoint[],
  results: ReadonlyMap<number, PointResult>,
): Panel[] {
  return titles.map((title, p) => {
    const mine = points.filter((pt) => pt.preset === p).flatMap((pt) => {
      const r = results.get(pt.index);
      return r ? [r] : [];
    });
    const names: string[] = [];
    for (const r of mine) r.classes.forEach((c, i) => (names[i] ??= c.name));
    return {
      title,
      series: names.map((name, i) => ({
        name,
        colorIndex: i,
        points: mine.flatMap((r) => {
          const c = r.classes[i];
          return c ? [[r.load, c.throughput] as const] : [];
        }),
      })),
    };
  });
}

/** Rows (preset, load) in plan order with the point's result (finished points only). */
export function sweepRows(
  titles: readonly string[],
  points: readonly SweepPoint[],
  results: ReadonlyMap<number, PointResult>,
): { title: string; point: SweepPoint; result: PointResult }[] {
  return points.flatMap((pt) => {
    const r = results.get(pt.index);
    return r ? [{ title: titles[pt.preset] ?? '', point: pt, result: r }] : [];
  });
}

/** CSV: scheduler, load, class, offered, throughput (fractions of the link). */
export function sweepCsv(
  titles: readonly string[],
  points: readonly SweepPoint[],
  results: ReadonlyMap<number, PointResult>,
): string {
  const lines = ['scheduler,load,class,offered,throughput'];
  for (const { title, point, result } of sweepRows(titles, points, results)) {
    for (const c of result.classes) {
      lines.push([csvField(title), point.load, csvField(c.name), c.offered, c.throughput].join(','));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** A scenario (JSON text) with its simulated duration set to `durationUs`, warm-up scaled alike. */
export function withDuration(json: string, durationUs: number | null): string {
  if (durationUs === null) return json;
  const s = JSON.parse(json) as { duration_us: number; warmup_us: number };
  const ratio = s.duration_us > 0 ? s.warmup_us / s.duration_us : 0.05;
  return JSON.stringify({ ...s, duration_us: durationUs, warmup_us: Math.floor(durationUs * ratio) });
}
