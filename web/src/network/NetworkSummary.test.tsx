import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import r2Json from '../../../engine/core/tests/data/network-r2.json';
import type { Scenario } from '../generated';
import {
  addClass,
  addEntry,
  classShares,
  isLinkLab,
  labOf,
  removeClass,
  setBufferBytes,
  setClassLoad,
  setLinkRate,
  setScheduler,
  tableOf,
} from '../shared/edit';
import { ScenarioEditor } from '../lab/ScenarioEditor';
import { defaultScenario } from '../state/scenario';
import { classLoad, topologyText } from './NetworkSummary';

afterEach(cleanup);

const network = (): Scenario => structuredClone(r2Json) as Scenario;

describe('network scenarios in the link lab', () => {
  it('tells a network from a link lab', () => {
    expect(isLinkLab(defaultScenario())).toBe(true);
    expect(isLinkLab(network())).toBe(false);
    expect(labOf(network())).toBeNull();
    expect(labOf(defaultScenario())?.classes.length).toBeGreaterThan(0);
  });

  it('link-lab edits leave a network unchanged instead of writing link-lab fields into it', () => {
    const n = network();
    for (const edit of [
      (s: Scenario) => setLinkRate(s, 10),
      (s: Scenario) => setBufferBytes(s, 1),
      (s: Scenario) => setScheduler(s, { kind: 'fifo' }),
      (s: Scenario) => addClass(s),
      (s: Scenario) => removeClass(s, 0),
      (s: Scenario) => addEntry(s),
      (s: Scenario) => setClassLoad(s, 0, 0.5),
    ]) {
      expect(edit(n)).toEqual(n);
    }
    expect(tableOf(n)).toEqual([]);
    expect(classShares(n)).toBeNull();
    // The same edits do change a link lab.
    expect(setLinkRate(defaultScenario(), 10)).not.toEqual(defaultScenario());
  });

  it('the editor shows a network read-only, pointing to the R2 view', () => {
    const onEdit = vi.fn();
    render(<ScenarioEditor scenario={network()} onEdit={onEdit} />);
    const summary = screen.getByTestId('network-summary');
    expect(summary.textContent).toMatch(/folded perfect-shuffle MIN, 64 end points, 8-port switches/);
    expect(screen.getByRole('link', { name: /Multimedia network \(R2\) view/ }).getAttribute('href')).toBe('#view=r2');
    expect(screen.getAllByRole('row')).toHaveLength(1 + 7);
    expect(screen.getByRole('rowheader', { name: 'VI' }).parentElement?.textContent).toMatch(/QoS.*45\.3 %/);
    expect(screen.getByRole('rowheader', { name: 'VO' }).parentElement?.textContent).toMatch(/CBR connections, 64 kb\/s, 160 B/);
    // No link-lab editor (nothing to edit, nothing edited).
    expect(screen.queryByLabelText('Scheduler kind')).toBeNull();
    expect(onEdit).not.toHaveBeenCalled();
  });

  it('describes topologies and reads class loads tolerantly', () => {
    const n = network();
    if (n.model.kind !== 'network') throw new Error('network');
    expect(topologyText({ ...n.model, topology: { kind: 'single_switch', ports: 8 } })).toMatch(/one switch with 8 ports/);
    expect(topologyText({ ...n.model, topology: { kind: 'tree', k: 4, n: 3 } })).toMatch(/4-ary 3-tree, 64 end points, 8-port/);
    expect(
      topologyText({ ...n.model, topology: { kind: 'torus', dims: [8, 8], trunk_ports: 10, end_points_per_switch: 8 } }),
    ).toMatch(/8x8 torus, trunks of 10 ports/);
    expect(topologyText({ ...n.model, topology: { kind: 'link' } })).toMatch(/two end points/);
    expect(classLoad(n.model.classes[0]!)).toBe(0.015);
  });
});
