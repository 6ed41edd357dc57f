// qoslab's page: header (name, views, engine version) and the Link lab or the table
// designer (`#view=design...`).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { DesignView } from './design/DesignView';
import { isDesignHash } from './design/route';
import type { Engine } from './engine/client';
import type { Scenario } from './generated';
import { LinkLab } from './lab/LinkLab';
import { encodeHash } from './share/link';
import type { SweepEngine } from './sweep/SweepPanel';

type View = 'lab' | 'design';

const viewOf = (hash: string): View => (isDesignHash(hash) ? 'design' : 'lab');

export function App({ engine, createEngine }: { engine: Engine; createEngine?: () => SweepEngine }) {
  const [version, setVersion] = useState<string | null>(null);
  const [view, setView] = useState<View>(() => viewOf(window.location.hash));
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
  useEffect(() => {
    const listener = () => setView(viewOf(window.location.hash));
    window.addEventListener('hashchange', listener);
    return () => window.removeEventListener('hashchange', listener);
  }, []);
  /** Switches view with a history entry (Back returns), the new view reading `hash`. */
  const go = useCallback((next: View, hash: string) => {
    window.history.pushState(null, '', `#${hash}`);
    setView(next);
  }, []);
  const simulate = useCallback((scenario: Scenario) => go('lab', encodeHash(scenario)), [go]);
  const designEngine = useMemo(() => {
    const { design, evaluate, opensmExport, opensmParse } = engine;
    return design && evaluate && opensmExport && opensmParse
      ? {
          design: design.bind(engine),
          evaluate: evaluate.bind(engine),
          opensmExport: opensmExport.bind(engine),
          opensmParse: opensmParse.bind(engine),
        }
      : null;
  }, [engine]);
  // The lab's address when the designer was opened, to come back to the same scenario.
  const labHash = useRef('');
  const openDesign = useCallback(() => {
    labHash.current = window.location.hash.replace(/^#/, '');
    go('design', 'view=design');
  }, [go]);
  return (
    <div className="app">
      <header className="app-header">
        <h1>
          qoslab <span className="subtitle">{view === 'design' ? 'Table designer' : 'Link lab'}</span>
        </h1>
        <p className="tagline">QoS scheduling on one output port: table, fair-queueing and priority schedulers, latency and throughput per class.</p>
        {designEngine ? (
          <nav className="app-nav" aria-label="Views">
            <button type="button" aria-current={view === 'lab' ? 'page' : undefined} disabled={view === 'lab'} onClick={() => go('lab', labHash.current)}>
              Link lab
            </button>
            <button type="button" aria-current={view === 'design' ? 'page' : undefined} disabled={view === 'design'} onClick={openDesign}>
              Table designer
            </button>
          </nav>
        ) : null}
        <span className="engine-version" data-testid="engine-version">
          {version ?? 'engine loading…'}
        </span>
      </header>
      {view === 'design' && designEngine ? (
        <main className="design-view-main">
          <DesignView engine={designEngine} onSimulate={simulate} />
        </main>
      ) : (
        <LinkLab engine={engine} createEngine={createEngine} />
      )}
    </div>
  );
}
