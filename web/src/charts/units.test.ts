import { describe, expect, it } from 'vitest';
import { chooseTimeUnit, formatNumber, formatTime, toUnit } from './units';
import { PALETTE, colorFor } from './palette';

describe('chooseTimeUnit', () => {
  it.each([
    [0, 'ns', 1],
    [1, 'ns', 1],
    [999, 'ns', 1],
    [999.999, 'ns', 1],
    [1000, 'µs', 1e3],
    [999_999, 'µs', 1e3],
    [1e6, 'ms', 1e6],
    [999_999_999, 'ms', 1e6],
    [1e9, 's', 1e9],
    [3.6e12, 's', 1e9],
    [-2500, 'µs', 1e3],
  ])('%d ns → %s', (ns, unit, factor) => {
    expect(chooseTimeUnit(ns)).toEqual({ unit, factor });
  });

  it('falls back to ns for non-finite input', () => {
    expect(chooseTimeUnit(Number.NaN).unit).toBe('ns');
    expect(chooseTimeUnit(Number.POSITIVE_INFINITY).unit).toBe('ns');
  });
});

describe('formatting', () => {
  it('converts and formats', () => {
    expect(toUnit(2500, chooseTimeUnit(2500))).toBe(2.5);
    expect(formatNumber(0.25)).toBe('0.25');
    expect(formatNumber(1000, 6)).toBe('1000');
    expect(formatTime(0)).toBe('0 ns');
    expect(formatTime(850)).toBe('850 ns');
    expect(formatTime(1500)).toBe('1.5 µs');
    expect(formatTime(999.9)).toBe('1 µs');
    expect(formatTime(123_456)).toBe('123 µs');
    expect(formatTime(2.5e9)).toBe('2.5 s');
  });
});

describe('palette', () => {
  it('cycles and avoids the pale Okabe–Ito yellow', () => {
    expect(colorFor(0)).toBe('#0072B2');
    expect(colorFor(PALETTE.length)).toBe(colorFor(0));
    expect(colorFor(-1)).toBe(PALETTE[PALETTE.length - 1]);
    expect(PALETTE).not.toContain('#F0E442');
  });
});
