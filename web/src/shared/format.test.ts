import { describe, expect, it } from 'vitest';
import { chooseLatencyUnit, formatCount, formatElapsed, formatLatency, formatPercent } from './format';

describe('results formatting', () => {
  it('picks one latency unit for a whole table', () => {
    expect(chooseLatencyUnit([10_674, 13_583.9, 707_871]).unit).toBe('µs');
    expect(chooseLatencyUnit([10_674, 13_583.9, 707_871]).decimals).toBe(1);
    expect(chooseLatencyUnit([120, 800]).unit).toBe('ns');
    expect(chooseLatencyUnit([14_000, 3_200_000])).toEqual({ unit: 'ms', factor: 1e6, decimals: 3 });
    expect(chooseLatencyUnit([2e9, 3e9]).unit).toBe('s');
    expect(chooseLatencyUnit([null, null]).unit).toBe('µs');
  });

  it('formats latencies in the chosen unit, with a dash when there are none', () => {
    const us = chooseLatencyUnit([10_674, 707_871]);
    expect(chooseLatencyUnit([640, 707_871]).decimals).toBe(2);
    expect(formatLatency(13_583.977, us)).toBe('13.6');
    expect(formatLatency(707_871.098, us)).toBe('707.9');
    expect(formatLatency(null, us)).toBe('—');
  });

  it('formats shares, counts and elapsed time', () => {
    expect(formatPercent(0.3499991389)).toBe('35.00 %');
    expect(formatPercent(0.1000064)).toBe('10.00 %');
    expect(formatCount(1_151_901)).toBe('1,151,901');
    expect(formatElapsed(421)).toBe('0.42 s');
    expect(formatElapsed(12_345)).toBe('12.3 s');
  });
});
