import { format } from 'd3-format';

/** A time unit for display. */
export type TimeUnit = 'ns' | 'µs' | 'ms' | 's';

/** A display unit and the number of nanoseconds in one of it. */
export interface TimeScale {
  unit: TimeUnit;
  factor: number;
}

const SCALES: readonly TimeScale[] = [
  { unit: 's', factor: 1e9 },
  { unit: 'ms', factor: 1e6 },
  { unit: 'µs', factor: 1e3 },
  { unit: 'ns', factor: 1 },
];
const NS: TimeScale = { unit: 'ns', factor: 1 };

/**
 * Largest unit in which `maxNs` is at least 1 (so values up to `maxNs` read
 * as 1..999 of that unit): < 1e3 → ns, < 1e6 → µs, < 1e9 → ms, else s.
 * Zero, negative magnitudes below 1 and non-finite input give ns.
 */
export function chooseTimeUnit(maxNs: number): TimeScale {
  const m = Math.abs(maxNs);
  if (!Number.isFinite(m)) return NS;
  return SCALES.find((s) => m >= s.factor) ?? NS;
}

/** `ns` expressed in `scale`'s unit. */
export function toUnit(ns: number, scale: TimeScale): number {
  return ns / scale.factor;
}

/** Formats a plain number with up to `digits` significant digits, no trailing zeros. */
export function formatNumber(value: number, digits = 3): string {
  return format(`.${digits}~g`)(value);
}

/**
 * Formats a duration with its own readable unit, e.g. `1500` → `"1.5 µs"`,
 * `999.9` → `"1 µs"` (rounded to `digits` significant digits first).
 */
export function formatTime(ns: number, digits = 3): string {
  if (!Number.isFinite(ns)) return `${ns} ns`;
  const rounded = ns === 0 ? 0 : Number(ns.toPrecision(digits));
  const scale = chooseTimeUnit(rounded);
  return `${formatNumber(toUnit(rounded, scale), digits)} ${scale.unit}`;
}
