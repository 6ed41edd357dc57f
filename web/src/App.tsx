// qoslab's page: header (name, engine version, views) and the Link lab or the R2 view.
import { useEffect, useState } from 'react';
import type { Engine } from './engine/client';
import { LinkLab } from './lab/LinkLab';
import { R2View } from './network/R2View';
import { R2_HASH, isR2Hash } from './network/route';
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
  // The hash that chose the view: the event's own (a view being left may rewrite the
  // address before the event is handled).
  const [viewHash, setViewHash] = useState(() => window.location.hash);
  const r2 = isR2Hash(viewHash);
  useEffect(() => {
    const listener = (e: HashChangeEvent) => setViewHash(new URL(e.newURL).hash);
    window.addEventListener('hashchange', listener);
    return () => window.removeEventListener('hashchange', listener);
  }, []);
  return (
    <div className="app">
      <header className="app-header">
        <h1>
          qoslab <span className="subtitle">{r2 ? 'Multimedia network (R2)' : 'Link lab'}</span>
        </h1>
        <p className="tagline">
          {r2
            ? 'QoS scheduling in a 64-node network: four schedulers swept over offered load, with confidence bands.'
            : 'QoS scheduling on one output port: table, fair-queueing and priority schedulers, latency and throughput per class.'}
        </p>
        <nav className="views" aria-label="Views">
          <a href="#" aria-current={r2 ? undefined : 'page'}>
            Link lab
          </a>
          <a href={`#${R2_HASH}`} aria-current={r2 ? 'page' : undefined}>
            Multimedia network (R2)
          </a>
        </nav>
        <span className="engine-version" data-testid="engine-version">
          {version ?? 'engine loading…'}
        </span>
      </header>
      {r2 ? <R2View engine={engine} createEngine={createEngine} initialHash={viewHash} /> : <LinkLab engine={engine} createEngine={createEngine} />}
    </div>
  );
}
