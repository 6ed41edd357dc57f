import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TechnologyMapping } from '../generated';
import { MappingPanel } from './MappingPanel';

afterEach(cleanup);

// The engine's Omni-Path mapping of the spec vector (design/omnipath_mapping.rs; its unit
// test checks these numbers): the panel shows what the engine counted, nothing of its own.
const omnipath: TechnologyMapping = {
  technology: 'omnipath',
  fits: true,
  summary:
    "Fits the Omni-Path DTable adaptation: a dedicated table next to each output's SL arbiter, with a deficit counter per SL and one accumulator per output (1536 deficit counters and 48 accumulators on a 48-port switch).",
  details: ['No Omni-Path hardware table holds a DTable as it is, and the InfiniBand layout … does not apply to Omni-Path.'],
  problems: [],
  omnipath_layout: {
    switch_ports: 48,
    sls: 32,
    entries_per_table: 64,
    tables: 48,
    deficit_counters_per_output: 32,
    deficit_counters: 1536,
    accumulators: 48,
    sls_used: 7,
    max_deficit_credits: 31,
    max_accumulated_credits: 95,
  },
};

const infiniband: TechnologyMapping = {
  technology: 'infiniband',
  fits: true,
  summary: "Fits as the InfiniBand VLArb low table, without DTable's deficit carry-over.",
  details: ['The published DTable-on-InfiniBand layout … (47 left unused) …'],
  problems: [],
};

describe('MappingPanel', () => {
  it('shows the Omni-Path DTable adaptation with its register count, not the InfiniBand layout', () => {
    render(<MappingPanel mappings={[infiniband, omnipath]} />);
    const opa = screen.getByTestId('design-mapping-omnipath');
    expect(opa.textContent).toContain('dedicated table next to each output');
    expect(opa.textContent).not.toContain('47 left unused');
    const table = within(opa).getByTestId('design-opa-layout');
    expect(within(table).getByText(/48-port switch with 32 SLs/)).toBeTruthy();
    const row = (name: RegExp) =>
      within(table)
        .getByRole('rowheader', { name })
        .closest('tr')!
        .querySelectorAll('td');
    const cells = (name: RegExp) => Array.from(row(name)).map((td) => td.textContent);
    expect(cells(/Deficit counters/)).toEqual(['32', '1536']);
    expect(cells(/Accumulated-weight/)).toEqual(['1', '48']);
    expect(cells(/DTable \(64 entries\)/)).toEqual(['1', '48']);
    expect(table.textContent).toContain('uses 7 of the 32 SLs');
    // Only Omni-Path has the adaptation.
    const ib = screen.getByTestId('design-mapping-infiniband');
    expect(within(ib).queryByTestId('design-opa-layout')).toBeNull();
  });
});
