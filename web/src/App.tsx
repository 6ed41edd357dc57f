// qoslab's page: header (name, views, engine version) and the view the address asks for.
// The views are registered in views.tsx; the header buttons switch views with a history
// entry, so Back works.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Engine, SweepEngine } from './engine/client';
import type { Scenario } from './generated';
import { encodeHash } from './share/link';
import { LatestHashContext, latestHash, type LatestHashHandle } from './state/useHashSync';
import { VIEWS, viewOf, type ViewContext, type ViewEntry } from './views';

export function App({ engine, createEngine }: { engine: Engine; createEngine?: () => SweepEngine }) {
  const [version, setVersion] = useState<string | null>(null);
  // The address the current view was opened at.
  const [openedHash, setOpenedHash] = useState(() => window.location.hash);
  const view = viewOf(openedHash);
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
    const listener = (e: HashChangeEvent) => setOpenedHash(new URL(e.newURL).hash);
    window.addEventListener('hashchange', listener);
    return () => window.removeEventListener('hashchange', listener);
  }, []);
  // The lab's address when another view was opened, to come back to the same scenario.
  const labHash = useRef('');
  // The open view's latest hash (its useHashSync registers the reader).
  const viewHash = useRef<LatestHashHandle['current']>(null);
  /** Switches view with a history entry (Back returns), the new view reading `hash`. */
  const go = useCallback((hash: string) => {
    // The lab's latest edit may still wait for the address's debounce.
    const current = latestHash(viewHash);
    if (viewOf(current).id === 'lab') labHash.current = current.replace(/^#/, '');
    window.history.pushState(null, '', `#${hash}`);
    setOpenedHash(`#${hash}`);
  }, []);
  const simulate = useCallback((scenario: Scenario) => go(encodeHash(scenario)), [go]);
  const open = (v: ViewEntry) => go(v.id === 'lab' ? labHash.current : v.hash);
  return (
    <div className="app">
      <header className="app-header">
        <h1>
          qoslab <span className="subtitle">{view.title}</span>
        </h1>
        <p className="tagline">{view.tagline}</p>
        <nav className="app-nav" aria-label="Views">
          {[...VIEWS.filter((v) => v.id === 'lab'), ...VIEWS.filter((v) => v.id !== 'lab')]
            .filter((v) => v.nav)
            .map((v) => {
              const here = view.id === v.id;
              const disabled = here && (!v.reopen || openedHash.replace(/^#/, '') === v.hash);
              return (
                <button type="button" key={v.id} aria-current={here ? 'page' : undefined} disabled={disabled} onClick={() => open(v)}>
                  {v.title}
                </button>
              );
            })}
        </nav>
        <span className="engine-version" data-testid="engine-version">
          {version ?? 'engine loading…'}
        </span>
      </header>
      <LatestHashContext.Provider value={viewHash}>
        <ViewBody view={view} engine={engine} createEngine={createEngine} hash={openedHash} simulate={simulate} />
      </LatestHashContext.Provider>
    </div>
  );
}

/** The open view's body, drawn by its registry entry. */
function ViewBody({ view, ...ctx }: ViewContext & { view: ViewEntry }) {
  return view.render(ctx);
}
