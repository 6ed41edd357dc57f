import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PresetMenu } from './PresetMenu';
import type { PresetInfo } from './presets';

const presets: PresetInfo[] = [
  { file: 'default.json', title: 'Default', group: null },
  { file: 'r1-dtable.json', title: 'R1: DTable', group: 'R1' },
];

describe('PresetMenu', () => {
  afterEach(cleanup);

  it('shows the open preset', () => {
    render(<PresetMenu presets={presets} current="r1-dtable" onOpen={() => undefined} />);
    expect((screen.getByLabelText('Preset') as HTMLSelectElement).value).toBe('r1-dtable');
    expect((screen.getByRole('button', { name: 'Open preset' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('names a preset that is not in the menu instead of claiming another is open', () => {
    render(<PresetMenu presets={presets} current="r2-multimedia-drr" onOpen={() => undefined} />);
    const select = screen.getByLabelText('Preset') as HTMLSelectElement;
    expect(select.value).toBe('r2-multimedia-drr');
    expect(select.selectedOptions[0]?.textContent).toBe('r2-multimedia-drr');
    expect((screen.getByRole('button', { name: 'Open preset' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
