// The presets menu: pick a bundled scenario (grouped, e.g. the R1 schedulers) and open it.
import { useState } from 'react';
import { presetName, type PresetInfo } from './presets';

interface Props {
  presets: readonly PresetInfo[];
  /** The preset the scenario came from, if any. */
  current: string | null;
  onOpen: (name: string) => void;
}

export function PresetMenu({ presets, current, onOpen }: Props) {
  const [picked, setPicked] = useState<string>('');
  const value = picked || current || (presets[0] ? presetName(presets[0].file) : '');
  // A preset opened by address but not in the menu (e.g. a network preset): shown as is,
  // rather than the select claiming another preset is open.
  const listed = presets.some((p) => presetName(p.file) === value);
  const ungrouped = presets.filter((p) => p.group === null);
  const groups = [...new Set(presets.flatMap((p) => (p.group === null ? [] : [p.group])))];
  if (presets.length === 0) return null;
  return (
    <div className="presets" role="group" aria-label="Presets">
      <label htmlFor="preset-select">Preset</label>
      <select id="preset-select" value={value} onChange={(e) => setPicked(e.target.value)}>
        {listed ? null : (
          <option value={value} disabled>
            {value}
          </option>
        )}
        {ungrouped.map((p) => (
          <option key={p.file} value={presetName(p.file)}>
            {p.title}
          </option>
        ))}
        {groups.map((g) => (
          <optgroup key={g} label={g}>
            {presets
              .filter((p) => p.group === g)
              .map((p) => (
                <option key={p.file} value={presetName(p.file)}>
                  {p.title}
                </option>
              ))}
          </optgroup>
        ))}
      </select>
      <button type="button" disabled={!value || !listed} onClick={() => onOpen(value)}>
        Open preset
      </button>
    </div>
  );
}
