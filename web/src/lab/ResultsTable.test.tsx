import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunResults } from '../generated';
import { ResultsTable } from './ResultsTable';

const latency = (mean: number, p50: number, p99: number, max: number) => ({
  samples: 10,
  mean,
  min: 100,
  p50,
  p99,
  max,
  cdf: [
    [100, 0.5],
    [max, 1],
  ] as [number, number][],
});

const fixture: RunResults = {
  engine: 'qoslab-core 0.1.0',
  scenario: 'fixture',
  seed: 7,
  duration_ns: 2_000_000_000,
  warmup_ns: 100_000_000,
  link_rate_gbps: 2,
  events: 3_455_672,
  generated: 1_151_901,
  delivered: 1_151_886,
  in_flight: 15,
  scheduler: { kind: 'dtable', cost: { decisions: 1, entries_visited: 1, bitmap_words: 1, classes_examined: 0, tag_computations: 0, heap_operations: 0 } },
  classes: [
    {
      name: 'Voice',
      offered: 0.10000707,
      throughput: 0.1000064,
      packets: 296_894,
      generated: 312_486,
      delivered: 312_484,
      in_flight: 2,
      latency_ns: latency(13_583.977, 10_674.175, 54_362.111, 115_041.843),
    },
    {
      name: 'Idle',
      offered: 0,
      throughput: 0,
      packets: 0,
      generated: 0,
      delivered: 0,
      in_flight: 0,
      latency_ns: { samples: 0, mean: null, min: null, p50: null, p99: null, max: null, cdf: [] },
    },
  ],
};

afterEach(cleanup);

describe('ResultsTable', () => {
  it('adds message latency and flits per cycle per end point when the network gives them', () => {
    const voice = fixture.classes[0]!;
    const results: RunResults = {
      ...fixture,
      classes: [
        {
          ...voice,
          messages: { mtu_bytes: 256, generated: 10, delivered: 10, in_flight: 0, latency_ns: latency(20_000, 19_000, 50_000, 60_000) },
          flits: { flit_bytes: 64, cycle_ns: 5.12, offered: 0.1, throughput: 0.09876 },
        },
        fixture.classes[1]!,
      ],
    };
    render(<ResultsTable results={results} />);
    const table = screen.getByTestId('results-table');
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(-3)).toEqual(['Message mean (µs)', 'Message p99 (µs)', 'Throughput (flits/cycle/node)']);
    const row = within(table).getByRole('rowheader', { name: 'Voice' }).closest('tr')!;
    const cells = Array.from(row.querySelectorAll('td')).map((td) => td.textContent);
    expect(cells.slice(-3)).toEqual(['20.0', '50.0', '0.0988']);
    const idle = within(table).getByRole('rowheader', { name: 'Idle' }).closest('tr')!;
    expect(Array.from(idle.querySelectorAll('td')).map((td) => td.textContent).slice(-3)).toEqual(['–', '–', '–']);
  });

  it('has no message or flit columns for results without them', () => {
    render(<ResultsTable results={fixture} />);
    const headers = within(screen.getByTestId('results-table')).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.some((h) => h?.startsWith('Message') || h?.includes('flits'))).toBe(false);
  });

  it('shows the numbers of each class in one latency unit', () => {
    render(<ResultsTable results={fixture} />);
    const table = screen.getByTestId('results-table');
    expect(within(table).getByRole('columnheader', { name: 'p99 (µs)' })).toBeTruthy();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const cells = (row: HTMLElement) => Array.from(row.querySelectorAll('th, td'), (c) => c.textContent);
    expect(cells(rows[0]!)).toEqual(['Voice', '10.00 %', '10.00 %', '296,894', '13.6', '10.7', '54.4', '115.0']);
    expect(cells(rows[1]!)).toEqual(['Idle', '0.00 %', '0.00 %', '0', '—', '—', '—', '—']);
  });

  it('shows the packet totals', () => {
    render(<ResultsTable results={fixture} />);
    const totals = screen.getByTestId('results-totals');
    expect(totals.textContent).toContain('Generated1,151,901');
    expect(totals.textContent).toContain('Delivered1,151,886');
    expect(totals.textContent).toContain('In flight at the end15');
  });
});
