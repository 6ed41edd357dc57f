// The Link lab screen: loads the scenario from the address (or the default), keeps
// the messages about links and files, and hands the scenario to the editor.
import { useCallback, useEffect, useState } from 'react';
import type { Engine, SweepEngine } from '../engine/client';
import type { Scenario } from '../generated';
import { loadPresetIndex, type PresetInfo } from '../presets/presets';
import { loadPreset, loadScenarioJson, scenarioFromHash } from '../state/scenario';
import { Banner, type BannerMessage, type BannerSource } from '../ui/Banner';
import { LabScreen } from './LabScreen';
import type { Edit } from '../form/types';

const DEFAULT_LOADED = 'The default scenario was loaded instead.';

let nextId = 1;

interface Props {
  engine: Engine;
  /** Makes extra engine workers (for sweeps); without it sweeps use `engine` alone. */
  createEngine?: () => SweepEngine;
}

export function LinkLab({ engine, createEngine }: Props) {
  const [scenario, setScenario] = useState<Scenario | null>(null);
  const [preset, setPreset] = useState<string | null>(null);
  // The preset's scenario as opened (JSON), to tell whether it has been edited since.
  const [presetJson, setPresetJson] = useState<string | null>(null);
  const [presets, setPresets] = useState<PresetInfo[]>([]);
  const [banners, setBanners] = useState<BannerMessage[]>([]);

  /** Shows a message; a newer message from the same source replaces the older one. */
  const addBanner = useCallback((source: BannerSource, title: string, lines: string[], footer?: string) => {
    setBanners((list) => [...list.filter((b) => b.source !== source), { id: nextId++, source, title, lines, footer }]);
  }, []);
  const clearBanner = useCallback((source: BannerSource) => {
    setBanners((list) => (list.some((b) => b.source === source) ? list.filter((b) => b.source !== source) : list));
  }, []);

  const applyHash = useCallback(
    async (hash: string) => {
      const loaded = await scenarioFromHash(engine, hash);
      setScenario(loaded.scenario);
      setPreset(loaded.preset ?? null);
      setPresetJson(loaded.preset ? JSON.stringify(loaded.scenario) : null);
      if (loaded.problem) addBanner('link', loaded.problem.title, loaded.problem.lines, DEFAULT_LOADED);
      else clearBanner('link');
    },
    [engine, addBanner, clearBanner],
  );

  useEffect(() => {
    let live = true;
    scenarioFromHash(engine, window.location.hash).then(
      (loaded) => {
        if (!live) return;
        setScenario(loaded.scenario);
        setPreset(loaded.preset ?? null);
        setPresetJson(loaded.preset ? JSON.stringify(loaded.scenario) : null);
        if (loaded.problem) addBanner('link', loaded.problem.title, loaded.problem.lines, DEFAULT_LOADED);
      },
      (e: unknown) => {
        if (!live) return;
        addBanner('engine', 'The engine could not start', [String(e)]);
      },
    );
    return () => {
      live = false;
    };
  }, [engine, addBanner]);

  useEffect(() => {
    let live = true;
    loadPresetIndex().then(
      (list) => {
        if (live) setPresets(list);
      },
      () => {
        // Without the list (e.g. a bare file:// page) the menu is simply not shown.
      },
    );
    return () => {
      live = false;
    };
  }, []);

  const onOpenPreset = useCallback(
    async (name: string) => {
      const loaded = await loadPreset(engine, name);
      if (loaded.problem) {
        addBanner('file', loaded.problem.title, loaded.problem.lines, 'The scenario being edited was kept.');
        return;
      }
      setScenario(loaded.scenario);
      setPreset(name);
      setPresetJson(JSON.stringify(loaded.scenario));
      clearBanner('file');
    },
    [engine, addBanner, clearBanner],
  );

  const onEdit: Edit = useCallback((f) => setScenario((s) => (s ? f(s) : s)), []);

  const onOpenFile = useCallback(
    async (name: string, text: string) => {
      const loaded = await loadScenarioJson(engine, text);
      if (loaded.ok) {
        setScenario(loaded.scenario);
        setPreset(null);
        setPresetJson(null);
        clearBanner('file');
      } else {
        addBanner('file', `Cannot open ${name}: it is not a valid scenario`, loaded.lines, 'The scenario being edited was kept.');
      }
    },
    [engine, addBanner, clearBanner],
  );

  const onExternalHash = useCallback((hash: string) => void applyHash(hash), [applyHash]);
  const onError = useCallback((title: string, lines: string[]) => addBanner('file', title, lines), [addBanner]);

  return (
    <>
      {banners.length > 0 ? (
        <div className="banners">
          {banners.map((b) => (
            <Banner key={b.id} message={b} onDismiss={() => setBanners((list) => list.filter((x) => x.id !== b.id))} />
          ))}
        </div>
      ) : null}
      {scenario ? (
        <LabScreen
          engine={engine}
          scenario={scenario}
          onEdit={onEdit}
          onOpenFile={onOpenFile}
          onExternalHash={onExternalHash}
          onError={onError}
          presets={presets}
          preset={preset}
          presetJson={presetJson}
          onOpenPreset={(name) => void onOpenPreset(name)}
          createEngine={createEngine}
        />
      ) : (
        <p className="placeholder" role="status">
          Loading the engine…
        </p>
      )}
    </>
  );
}
