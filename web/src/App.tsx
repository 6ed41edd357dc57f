// qoslab's page: header (name, engine version) and the Link lab.
import { useEffect, useState } from 'react';
import type { Engine } from './engine/client';
import { LinkLab } from './lab/LinkLab';
import type { SweepEngine } from './sweep/SweepPanel';

export function App({ engine, createEngine }: { engine: Engine; createEngine?: () => SweepEngine }) {
  const [version, setVersion] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    engine.version().then(
      (v) => {
        if (live) setVersion(v);
      },
      () => {
        if (live) setVersion('engine unavailable');
      },
    );
    return () => {
      live = false;
    };
  }, [engine]);
  return (
    <div className="app">
      <header className="app-header">
        <h1>
          qoslab <span className="subtitle">Link lab</span>
        </h1>
        <p className="tagline">QoS scheduling on one output port: table, fair-queueing and priority schedulers, latency and throughput per class.</p>
        <span className="engine-version" data-testid="engine-version">
          {version ?? 'engine loading…'}
        </span>
      </header>
      <LinkLab engine={engine} createEngine={createEngine} />
    </div>
  );
}
