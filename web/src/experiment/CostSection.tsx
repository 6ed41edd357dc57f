// The cost panel (plot kind `cost`): what each configuration's network costs in hardware,
// read from its runs' results, next to the performance plots. A figure the spec's area table
// does not give directly is marked “scaled”.
import { useMemo } from 'react';
import { downloadText } from '../charts/export';
import { colorFor } from '../charts/palette';
import type { HardwareCost } from '../generated';
import { AREA_TECHNOLOGIES, costCsv, costRows, formatArea, formatBytes, type AreaCell } from './cost';

function Area({ cell }: { cell: AreaCell | null }) {
  if (!cell) return <td>—</td>;
  return (
    <td data-scaled={cell.scaled ? 'true' : undefined}>
      {formatArea(cell.totalMm2)}
      <span className="help"> ({formatArea(cell.switchMm2)} each)</span>
      {cell.scaled ? <em className="cost-scaled"> scaled</em> : null}
    </td>
  );
}

export function CostSection({ prefix, labels, hardware }: { prefix: string; labels: string[]; hardware: ReadonlyMap<number, readonly (HardwareCost | null | undefined)[]> }) {
  const rows = useMemo(() => costRows(labels, hardware), [labels, hardware]);
  const anyScaled = rows.some((r) => r.hardware?.area.some((a) => a?.scaled));
  const inconsistent = rows.filter((r) => r.inconsistent).map((r) => r.label);
  return (
    <section className="panel" aria-labelledby={`${prefix}-cost-title`} data-testid={`${prefix}-cost-panel`}>
      <div className="panel-head">
        <h3 id={`${prefix}-cost-title`}>Hardware cost per configuration</h3>
        <div className="cdf-toolbar" role="group" aria-label="Cost table: export">
          <button type="button" onClick={() => downloadText(`qoslab-${prefix}-cost.csv`, 'text/csv;charset=utf-8', costCsv(rows))}>
            Export CSV
          </button>
        </div>
      </div>
      <p className="help">
        What each design’s network is built from, as its runs’ results report it (the same for every load and seed): switches
        and links (end-point links included), ports of the largest switch, VCs per port, buffer memory (one switch and all of
        them) and the silicon area of all switches at 0.18 µm and 0.13 µm.
        {anyScaled ? ' “Scaled” marks an area the spec’s table does not list for that switch, estimated from its two rows (buffers by memory, crossbar by ports, scheduler by queues).' : ''}
        {' '}“—”: the configuration’s runs report no hardware.
      </p>
      {inconsistent.length > 0 ? (
        <p className="note" role="note">
          The runs of {inconsistent.join(', ')} report different hardware; the first run’s is shown.
        </p>
      ) : null}
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Hardware cost table">
        <table className="results-table" data-testid={`${prefix}-cost`}>
          <caption>Hardware of each configuration’s network</caption>
          <thead>
            <tr>
              <th scope="col">Configuration</th>
              <th scope="col">Switches</th>
              <th scope="col">Links</th>
              <th scope="col">Ports per switch</th>
              <th scope="col">VCs per port</th>
              <th scope="col">Buffer memory</th>
              {AREA_TECHNOLOGIES.map((t) => (
                <th scope="col" key={t}>
                  Area at {t} µm
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => {
              const h = r.hardware;
              return (
                <tr key={r.label} data-configuration={r.label}>
                  <th scope="row">
                    <span className="swatch" style={{ background: colorFor(i) }} aria-hidden="true" />
                    {r.label}
                  </th>
                  {h ? (
                    <>
                      <td data-col="switches">{h.switches}</td>
                      <td data-col="links">{h.links}</td>
                      <td data-col="ports">{h.portsPerSwitch}</td>
                      <td data-col="vcs">{h.vcsPerPort}</td>
                      <td data-col="buffer">
                        {formatBytes(h.bufferBytes)}
                        <span className="help"> ({formatBytes(h.bufferBytesPerSwitch)} each)</span>
                      </td>
                      {h.area.map((a, k) => (
                        <Area key={AREA_TECHNOLOGIES[k]} cell={a} />
                      ))}
                    </>
                  ) : (
                    new Array(5 + AREA_TECHNOLOGIES.length).fill(0).map((_, k) => <td key={k}>—</td>)
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
