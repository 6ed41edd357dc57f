// qoslab's page: header (name, views, engine version) and the Link lab, the table
// designer (`#view=design...`) or the R2 network view (`#view=r2...`).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { DesignView } from './design/DesignView';
import { isDesignHash } from './design/route';
import type { Engine } from './engine/client';
import type { Scenario } from './generated';
import { LinkLab } from './lab/LinkLab';
import { R2View } from './network/R2View';
import { R2_HASH, isR2Hash } from './network/route';
import { encodeHash } from './share/link';
import type { SweepEngine } from './sweep/SweepPanel';

type View = 'lab' | 'design' | 'r2';

const viewOf = (hash: string): View => (isDesignHash(hash) ? 'design' : isR2Hash(hash) ? 'r2' : 'lab');

const SUBTITLES: Record<View, string> = { lab: 'Link lab', design: 'Table designer', r2: 'Multimedia network (R2)' };
const TAGLINES: Record<View, string> = {
  lab: 'QoS scheduling on one output port: table, fair-queueing and priority schedulers, latency and throughput per class.',
  design: 'Arbitration tables from requirements: latency by distance, bandwidth by weight, a worst-case wait bound per class, OpenSM export.',
  r2: 'QoS scheduling in a 64-node network: four schedulers swept over offered load, with confidence bands.',
};

export function App({ engine, createEngine }: { engine: Engine; createEngine?: () => SweepEngine }) {
  const [version, setVersion] = useState<string | null>(null);
  const [view, setView] = useState<View>(() => viewOf(window.location.hash));
  // The address the current view was opened at.
  const [openedHash, setOpenedHash] = useState(() => window.location.hash);
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
    // The event's own address: a view being left may rewrite the hash before this runs.
    const listener = (e: HashChangeEvent) => {
      const hash = new URL(e.newURL).hash;
      setOpenedHash(hash);
      setView(viewOf(hash));
    };
    window.addEventListener('hashchange', listener);
    return () => window.removeEventListener('hashchange', listener);
  }, []);
  /** Switches view with a history entry (Back returns), the new view reading `hash`. */
  const go = useCallback((next: View, hash: string) => {
    window.history.pushState(null, '', `#${hash}`);
    setOpenedHash(`#${hash}`);
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
  const leaveLab = useCallback(() => {
    if (viewOf(window.location.hash) === 'lab') labHash.current = window.location.hash.replace(/^#/, '');
  }, []);
  const openDesign = useCallback(() => {
    leaveLab();
    go('design', 'view=design');
  }, [go, leaveLab]);
  const openR2 = useCallback(() => {
    leaveLab();
    go('r2', R2_HASH);
  }, [go, leaveLab]);
  return (
    <div className="app">
      <header className="app-header">
        <h1>
          qoslab <span className="subtitle">{SUBTITLES[view]}</span>
        </h1>
        <p className="tagline">
          {TAGLINES[view]}
        </p>
        <nav className="app-nav" aria-label="Views">
          <button type="button" aria-current={view === 'lab' ? 'page' : undefined} disabled={view === 'lab'} onClick={() => go('lab', labHash.current)}>
            Link lab
          </button>
          {designEngine ? (
            <button type="button" aria-current={view === 'design' ? 'page' : undefined} disabled={view === 'design'} onClick={openDesign}>
              Table designer
            </button>
          ) : null}
          <button type="button" aria-current={view === 'r2' ? 'page' : undefined} disabled={view === 'r2'} onClick={openR2}>
            Multimedia network (R2)
          </button>
        </nav>
        <span className="engine-version" data-testid="engine-version">
          {version ?? 'engine loading…'}
        </span>
      </header>
      {view === 'design' && designEngine ? (
        <main className="design-view-main">
          <DesignView engine={designEngine} onSimulate={simulate} />
        </main>
      ) : view === 'r2' ? (
        <R2View engine={engine} createEngine={createEngine} initialHash={openedHash} />
      ) : (
        <LinkLab engine={engine} createEngine={createEngine} />
      )}
    </div>
  );
}
