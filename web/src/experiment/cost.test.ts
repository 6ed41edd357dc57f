import { describe, expect, it } from 'vitest';
import type { HardwareCost } from '../generated';
import { configurationHardware, costCsv, costRows, formatArea, formatBytes } from './cost';
import { parseStudy } from './study';

const block = (switches: number, links: number, scaled: boolean): HardwareCost => ({
  switches,
  links,
  ports_per_switch: 8,
  vcs_per_port: 2,
  scheduler_queues: 16,
  buffer_bytes_per_switch: 65536,
  switch_buffer_bytes: 65536 * switches,
  area: [
    { technology_um: 0.18, buffers_mm2: 64, crossbar_mm2: 5, scheduler_mm2: 2.5, switch_mm2: 71.5, total_mm2: 71.5 * switches, source: scaled ? 'scaled' : 'table' },
    { technology_um: 0.13, buffers_mm2: 32, crossbar_mm2: 3, scheduler_mm2: 2, switch_mm2: 37, total_mm2: 37 * switches, source: 'table' },
  ],
});

describe('cost panel data', () => {
  it('takes a configuration’s hardware from its runs and flags runs that disagree', () => {
    const a = block(48, 192, false);
    expect(configurationHardware([undefined, a, a])).toEqual({ hardware: a, inconsistent: false });
    expect(configurationHardware([a, block(16, 128, false)]).inconsistent).toBe(true);
    expect(configurationHardware([null, undefined])).toEqual({ hardware: null, inconsistent: false });
  });

  it('gives one row per configuration, null where the runs carry no hardware', () => {
    const rows = costRows(['Trad', 'New', 'Other'], new Map([[0, [block(48, 192, false)]], [1, [block(16, 128, true), block(16, 128, true)]], [2, [null]]]));
    expect(rows.map((r) => r.label)).toEqual(['Trad', 'New', 'Other']);
    expect(rows[0]?.hardware).toMatchObject({ switches: 48, links: 192, portsPerSwitch: 8, vcsPerPort: 2, bufferBytes: 48 * 65536 });
    expect(rows[0]?.hardware?.area).toEqual([
      { totalMm2: 3432, switchMm2: 71.5, scaled: false },
      { totalMm2: 1776, switchMm2: 37, scaled: false },
    ]);
    expect(rows[1]?.hardware?.area[0]?.scaled).toBe(true);
    expect(rows[1]?.hardware?.area[1]?.scaled).toBe(false);
    expect(rows[2]?.hardware).toBeNull();
  });

  it('exports CSV with empty fields for a configuration without hardware', () => {
    const csv = costCsv(costRows(['A, 8 VCs', 'B'], new Map([[0, [block(16, 128, true)]]]))).split('\r\n');
    expect(csv[0]).toBe(
      'configuration,switches,links,ports_per_switch,vcs_per_port,scheduler_queues,buffer_bytes_per_switch,buffer_bytes_total,area_0.18um_total_mm2,area_0.18um_switch_mm2,area_0.18um_scaled,area_0.13um_total_mm2,area_0.13um_switch_mm2,area_0.13um_scaled',
    );
    expect(csv[1]).toBe('"A, 8 VCs",16,128,8,2,16,65536,1048576,1144,71.5,true,592,37,false');
    expect(csv[2]).toBe(`B${','.repeat(13)}`);
  });

  it('formats bytes and areas', () => {
    expect(formatBytes(65536)).toBe('64 KiB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3 MiB');
    expect(formatBytes(1536 * 1024)).toBe('1.5 MiB');
    expect(formatArea(3792)).toBe('3792 mm²');
    expect(formatArea(71.5)).toBe('71.5 mm²');
  });

  it('is a plot kind any study can list', () => {
    const study = (plots: unknown) =>
      JSON.stringify({ format: 1, id: 'x', title: 'X', short: 'X', configurations: [{ preset: 'p', label: 'P' }], axis: { kind: 'load', label: 'L', values: [1] }, seeds: 1, plots, cost: { msPerSimulatedMs: 1 } });
    const ok = parseStudy(study([{ kind: 'cost', id: 'cost' }]));
    expect(ok.ok && ok.study.plots).toEqual([{ kind: 'cost', id: 'cost' }]);
    const bad = parseStudy(study([{ kind: 'costs', id: 'cost' }]));
    expect(bad.ok ? [] : bad.problems.join()).toMatch(/cost, improvement/);
  });
});
