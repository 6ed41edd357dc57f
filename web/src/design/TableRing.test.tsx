import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DesignEntry } from '../generated';
import { setEntry } from './model';
import { TableRing } from './TableRing';

afterEach(cleanup);

const names = ['NC', 'VO', 'VI'];

function Harness({ initial, maxWeight = 255 }: { initial: DesignEntry[]; maxWeight?: number | null }) {
  const [table, setTable] = useState(initial);
  const [selected, setSelected] = useState(0);
  return (
    <>
      <TableRing
        table={table}
        names={names}
        selected={selected}
        onSelect={setSelected}
        onChange={(i, e) => setTable((t) => setEntry(t, i, e))}
        maxWeight={maxWeight}
      />
      <output data-testid="table">{table.map((e) => `${e.class}:${e.weight ?? '-'}`).join(',')}</output>
    </>
  );
}

const ring = () => screen.getByTestId('design-ring');
const table = () => screen.getByTestId('table').textContent;

describe('TableRing', () => {
  const initial: DesignEntry[] = [
    { class: 'NC', weight: 3 },
    { class: 'VO', weight: 3 },
    { class: 'NC', weight: 3 },
    { class: 'VI', weight: 64 },
  ];

  it('selects with the arrows (wrapping) and the mouse; the listbox points at the entry', () => {
    render(<Harness initial={initial} />);
    expect(ring().getAttribute('aria-activedescendant')).toBe('design-entry-0');
    fireEvent.keyDown(ring(), { key: 'ArrowLeft' });
    expect(ring().getAttribute('data-selected')).toBe('3');
    expect(screen.getByRole('option', { name: 'Entry 3: VI, weight 64' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(ring(), { key: 'ArrowRight' });
    expect(ring().getAttribute('data-selected')).toBe('0');
    fireEvent.click(screen.getByRole('option', { name: 'Entry 1: VO, weight 3' }));
    expect(ring().getAttribute('data-selected')).toBe('1');
    expect(screen.getByRole('group', { name: 'Selected entry: 1' })).toBeTruthy();
  });

  it('changes the class with C / Shift+C and the weight with + / -, within the field', () => {
    render(<Harness initial={initial} />);
    fireEvent.keyDown(ring(), { key: 'c' });
    expect(table()).toBe('VO:3,VO:3,NC:3,VI:64');
    fireEvent.keyDown(ring(), { key: 'C', shiftKey: true });
    fireEvent.keyDown(ring(), { key: 'C', shiftKey: true });
    expect(table()).toBe('VI:3,VO:3,NC:3,VI:64');
    fireEvent.keyDown(ring(), { key: 'End' });
    fireEvent.keyDown(ring(), { key: '+' });
    expect(table()).toBe('VI:3,VO:3,NC:3,VI:65');
    expect((screen.getByLabelText('Selected entry weight') as HTMLInputElement).value).toBe('65');
    fireEvent.keyDown(ring(), { key: 'Home' });
    for (let i = 0; i < 5; i++) fireEvent.keyDown(ring(), { key: '-' });
    expect(table()).toBe('VI:0,VO:3,NC:3,VI:65');
  });

  it('edits the selected entry with the fields; a weight out of range is refused in words', () => {
    render(<Harness initial={initial} />);
    fireEvent.change(screen.getByLabelText('Selected entry class'), { target: { value: 'VI' } });
    fireEvent.change(screen.getByLabelText('Selected entry weight'), { target: { value: '200' } });
    expect(table()).toBe('VI:200,VO:3,NC:3,VI:64');
    fireEvent.change(screen.getByLabelText('Selected entry weight'), { target: { value: '256' } });
    expect(table()).toBe('VI:200,VO:3,NC:3,VI:64');
    expect(screen.getByText('The weight must be a whole number from 0 to 255.')).toBeTruthy();
  });

  it('has no weight field for tables without weights', () => {
    render(<Harness initial={[{ class: 'NC', weight: null }]} maxWeight={null} />);
    expect(screen.queryByLabelText('Selected entry weight')).toBeNull();
    fireEvent.keyDown(ring(), { key: '+' });
    expect(table()).toBe('NC:-');
  });
});
