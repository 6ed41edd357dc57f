import { useEffect, useMemo, useState } from 'react';
import defaultScenario from '../../public/presets/default.json';
import { EngineClient, type RunOutcome, type RunProgress } from './engine/client';

export function App() {
  const engine = useMemo(() => new EngineClient(), []);
  const [progress, setProgress] = useState<RunProgress | null>(null);
  const [outcome, setOutcome] = useState<RunOutcome | null>(null);
  useEffect(() => () => engine.dispose(), [engine]);
  const run = async () => {
    setOutcome(null);
    setOutcome(await engine.run(JSON.stringify(defaultScenario), setProgress));
  };
  return (
    <main>
      <h1>qoslab</h1>
      <button type="button" onClick={() => void run()}>Run</button>
      <progress max={1} value={progress?.fraction ?? 0} />
      <pre data-testid="outcome">{outcome ? outcome.status : ''}</pre>
    </main>
  );
}
