// Scenario files: download the scenario being edited, open one (through the engine's
// `load`, which migrates old versions and names every problem).
import { useRef, useState } from 'react';
import type { Scenario } from '../generated';
import { downloadText } from '../shared/download';

/** Largest scenario file accepted, in bytes. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;

interface Props {
  scenario: Scenario;
  /** Loads the text of a file; resolves to the problems (empty when it was loaded). */
  onOpen: (name: string, text: string) => Promise<void>;
  onError: (title: string, lines: string[]) => void;
}

export function ScenarioFiles({ scenario, onOpen, onError }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const open = async (file: File) => {
    if (file.size > MAX_FILE_BYTES) {
      onError(`Cannot open ${file.name}`, [`The file is ${file.size} bytes; scenario files are at most ${MAX_FILE_BYTES} bytes.`]);
      return;
    }
    setBusy(true);
    try {
      await onOpen(file.name, await file.text());
    } catch (e) {
      onError(`Cannot open ${file.name}`, [String(e)]);
    } finally {
      setBusy(false);
      // Let the same file be chosen again.
      if (input.current) input.current.value = '';
    }
  };
  return (
    <div className="row files">
      <button type="button" onClick={() => downloadText('qoslab-scenario.json', `${JSON.stringify(scenario, null, 2)}\n`)}>
        Download scenario (JSON)
      </button>
      <label className={`button file-button${busy ? ' busy' : ''}`}>
        Open scenario file…
        <input
          ref={input}
          className="visually-hidden"
          type="file"
          accept=".json,application/json"
          disabled={busy}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void open(file);
          }}
        />
      </label>
    </div>
  );
}
