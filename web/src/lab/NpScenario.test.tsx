// A network-processor node in the link lab: the editor's place says what it is and links
// its experiments; a run's results add the node's figures.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { NpResults, Scenario } from '../generated';
import { NpResultsTable } from './NpResultsTable';
import { isNetworkProcessor, npSummary } from './NpScenarioNote';
import { ScenarioEditor } from './ScenarioEditor';

afterEach(cleanup);

const preset = (name: string) => JSON.parse(readFileSync(join(process.cwd(), `public/presets/${name}.json`), 'utf8')) as Scenario;

describe('network-processor scenarios in the link lab', () => {
  it('R5’s heap preset: a note naming the node and linking R5’s three experiments instead of an editor', () => {
    const s = preset('r5-violations-heap');
    expect(isNetworkProcessor(s)).toBe(true);
    render(<ScenarioEditor scenario={s} onEdit={() => undefined} validate={() => Promise.resolve(null)} />);
    const note = screen.getByTestId('np-note');
    expect(note.textContent).toContain('200 streams in 1 group, the link as the server, a 0.5 Gb/s link, a 232 MHz clock, scheduled by DWCS with two heaps (exact).');
    const links = within(note)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    expect(links).toEqual(['#view=r5', '#view=study&id=r5-streams', '#view=study&id=r5-budget', '#view=np-decisions']);
  });

  it('R6’s presets link the R6 view; engines are named as the server', () => {
    const s = preset('r6-pcfq');
    if (!isNetworkProcessor(s)) throw new Error('r6-pcfq is a network processor');
    expect(npSummary(s.model)).toMatch(/processing engines?, .* scheduled by PCFQ/);
    render(<ScenarioEditor scenario={s} onEdit={() => undefined} validate={() => Promise.resolve(null)} />);
    expect(within(screen.getByTestId('np-note')).getAllByRole('link')[0]?.getAttribute('href')).toBe('#view=r6');
  });

  it('a link-lab scenario keeps its editor (no note)', () => {
    const s = preset('default');
    expect(isNetworkProcessor(s)).toBe(false);
    render(<ScenarioEditor scenario={s} onEdit={() => undefined} validate={() => Promise.resolve(null)} />);
    expect(screen.queryByTestId('np-note')).toBeNull();
  });

  it('the results add packets, drops and violations per group and the cost against the budget', () => {
    const np = {
      scheduler: 'dwcs_hilq',
      streams: 200,
      utilisation: 1.2,
      generated: 1000,
      sent: 900,
      dropped_late: 80,
      lost_full: 5,
      queued: 15,
      late_sent: 2,
      violations: 40,
      active_streams: 150.25,
      categories: [{ name: 'streams', streams: 200, generated: 1000, sent: 900, dropped_late: 80, lost_full: 5, late_sent: 2, violations: 40 }],
      cost: { accesses_per_packet: 10.5, cycles_per_packet: 170, budget_cycles: 238, clock_mhz: 232, sustained_packets_per_s: 1_364_706, sustained_streams: 26_000 },
    } as unknown as NpResults;
    render(<NpResultsTable np={np} />);
    const row = screen.getByRole('row', { name: /^streams/ });
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['200', '1,000', '900', '80', '5', '2', '40']);
    const cost = screen.getByTestId('np-cost');
    expect(cost.textContent).toContain('10.5 memory accesses and 170 cycles per scheduled packet at 232 MHz');
    expect(cost.textContent).toContain('the link leaves 238 cycles per packet: within the budget');
    expect(cost.textContent).toContain('15 packets still queued');
    render(<NpResultsTable np={{ ...np, cost: { ...np.cost, cycles_per_packet: 1900 } }} />);
    expect(screen.getAllByTestId('np-cost')[1]?.textContent).toContain('over the budget');
  });
});
