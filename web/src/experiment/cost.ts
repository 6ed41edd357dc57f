// The cost panel of a study (plot kind `cost`): per configuration, the hardware its runs'
// results carry (`RunResults.hardware`: switches, links, ports, VCs, buffer memory and the
// silicon area per technology). Every run of a configuration has the same network, so the
// first run's block stands for all of them; a configuration whose runs carry none has none.
import { csvField } from '../charts/export';
import type { HardwareCost } from '../generated';

/** The technologies of the area columns, µm. */
export const AREA_TECHNOLOGIES = [0.18, 0.13] as const;

/** An area figure: total mm² of all switches and whether it is scaled from the table. */
export interface AreaCell {
  totalMm2: number;
  switchMm2: number;
  scaled: boolean;
}

/** One row of the cost table. */
export interface CostRow {
  label: string;
  /** Null: the configuration's runs carry no hardware block (or none has finished). */
  hardware: {
    switches: number;
    links: number;
    portsPerSwitch: number;
    vcsPerPort: number;
    schedulerQueues: number;
    bufferBytesPerSwitch: number;
    bufferBytes: number;
    /** Per technology of `AREA_TECHNOLOGIES` (null: not in the block). */
    area: (AreaCell | null)[];
  } | null;
  /** The runs' blocks disagree (should not happen: the network does not depend on the load or seed). */
  inconsistent: boolean;
}

/** The hardware of a configuration from its runs' blocks (undefined/null: a run without one). */
export function configurationHardware(blocks: readonly (HardwareCost | null | undefined)[]): { hardware: HardwareCost | null; inconsistent: boolean } {
  const present = blocks.filter((b): b is HardwareCost => b !== null && b !== undefined);
  const first = present[0] ?? null;
  const key = first ? JSON.stringify(first) : '';
  const inconsistent = present.some((b) => JSON.stringify(b) !== key);
  return { hardware: first, inconsistent };
}

/** The table's rows, one per configuration (`blocks.get(i)`: the hardware blocks of configuration i's finished runs). */
export function costRows(labels: readonly string[], blocks: ReadonlyMap<number, readonly (HardwareCost | null | undefined)[]>): CostRow[] {
  return labels.map((label, i) => {
    const { hardware: h, inconsistent } = configurationHardware(blocks.get(i) ?? []);
    if (!h) return { label, hardware: null, inconsistent };
    const area = AREA_TECHNOLOGIES.map((t): AreaCell | null => {
      const a = h.area.find((x) => Math.abs(x.technology_um - t) < 1e-9);
      return a ? { totalMm2: a.total_mm2, switchMm2: a.switch_mm2, scaled: a.source === 'scaled' } : null;
    });
    return {
      label,
      inconsistent,
      hardware: {
        switches: h.switches,
        links: h.links,
        portsPerSwitch: h.ports_per_switch,
        vcsPerPort: h.vcs_per_port,
        schedulerQueues: h.scheduler_queues,
        bufferBytesPerSwitch: h.buffer_bytes_per_switch,
        bufferBytes: h.switch_buffer_bytes,
        area,
      },
    };
  });
}

/** Bytes in words: "64 KiB", "3 MiB", "1.5 MiB". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[u]}`;
}

/** An area in mm² ("3792 mm²", "71.5 mm²"). */
export function formatArea(mm2: number): string {
  return `${Number.isInteger(mm2) ? mm2 : mm2.toFixed(1)} mm²`;
}

/** The table as CSV: one line per configuration, empty fields where there is no hardware block. */
export function costCsv(rows: readonly CostRow[]): string {
  const area = AREA_TECHNOLOGIES.flatMap((t) => [`area_${t}um_total_mm2`, `area_${t}um_switch_mm2`, `area_${t}um_scaled`]);
  const lines = [
    ['configuration', 'switches', 'links', 'ports_per_switch', 'vcs_per_port', 'scheduler_queues', 'buffer_bytes_per_switch', 'buffer_bytes_total', ...area].join(','),
  ];
  for (const r of rows) {
    const h = r.hardware;
    const cells: (string | number | boolean)[] = h
      ? [
          h.switches,
          h.links,
          h.portsPerSwitch,
          h.vcsPerPort,
          h.schedulerQueues,
          h.bufferBytesPerSwitch,
          h.bufferBytes,
          ...h.area.flatMap((a): (string | number | boolean)[] => (a ? [a.totalMm2, a.switchMm2, a.scaled] : ['', '', ''])),
        ]
      : new Array<string>(7 + 3 * AREA_TECHNOLOGIES.length).fill('');
    lines.push([csvField(r.label), ...cells].join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
