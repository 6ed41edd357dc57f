// The plots of a study's results, as its `plots` list says: a metric vs load per class (a
// line and a 90% band per configuration), latency and jitter CDFs at the highest load, the
// admission table, the hardware cost table and the improvement table. Each chart exports its own data.
import { useMemo, useRef, useState } from 'react';
import { ExportButtons } from '../charts/ExportButtons';
import { cdfToCsv } from '../charts/export';
import { PanelsChart, type Panel } from '../charts/PanelsChart';
import { chooseTimeUnit } from '../charts/units';
import { bandPanels, jitterExtent, jitterPanels, metricCsv, poolCdfs, type RunSummary } from './data';
import { ClassChooser } from './ClassChooser';
import { CostSection } from './CostSection';
import { groupedPanels, type ClassChoice } from './groups';
import { DelaySeriesSection, DelayTableSection } from './DelaySections';
import { AdmissionSection, ImprovementSection } from './ResultTables';
import type { HardwareCost } from '../generated';
import { AXIS_INFO, METRIC_INFO, type Study, type StudyPlot } from './study';
import type { Plan, PointMap } from './useSweep';

function ChartSection({
  prefix,
  id,
  title,
  csv,
  children,
}: {
  prefix: string;
  id: string;
  title: string;
  csv: () => string;
  children: (ref: React.RefObject<SVGSVGElement | null>) => React.ReactNode;
}) {
  const ref = useRef<SVGSVGElement>(null);
  const full = `${prefix}-${id}`;
  return (
    <section className="panel cdf-panel" aria-labelledby={`${full}-title`} data-testid={full}>
      <div className="panel-head">
        <h3 id={`${full}-title`}>{title}</h3>
        <div className="cdf-toolbar" role="group" aria-label={`${title}: export`}>
          <ExportButtons svgRef={ref} filename={`qoslab-${full}`} csv={csv} />
        </div>
      </div>
      {children(ref)}
    </section>
  );
}

export function ExperimentResults({
  study,
  plan,
  points,
  cdfRuns,
  hardware = new Map(),
}: {
  study: Study;
  plan: Plan;
  points: PointMap;
  cdfRuns: ReadonlyMap<number, RunSummary[]>;
  /** Per configuration, the hardware blocks of its finished runs (the `cost` plot). */
  hardware?: ReadonlyMap<number, readonly (HardwareCost | null)[]>;
}) {
  const { labels, params } = plan;
  const loads = params.loads;
  const prefix = study.id;
  const latencies = [...points.values()].flatMap((p) => p.classes.flatMap((c) => [c.p99Ns.mean ?? 0, (c.p99Ns.mean ?? 0) + (c.p99Ns.ci90 ?? 0)]));
  const unit = chooseTimeUnit(Math.max(0, ...latencies));
  const cdfPanels = useMemo((): Panel[] => {
    const names = (cdfRuns.values().next().value ?? [])[0]?.map((c) => c.name) ?? [];
    return names.map((title, c) => ({
      title,
      series: labels.map((name, s) => ({
        name,
        colorIndex: s,
        points: poolCdfs((cdfRuns.get(s) ?? []).map((r) => ({ samples: r[c]?.samples ?? 0, cdf: r[c]?.cdf ?? [] }))).map(
          ([x, f]) => [x / unit.factor, f] as const,
        ),
      })),
    }));
  }, [cdfRuns, labels, unit.factor]);
  const highest = loads[loads.length - 1] ?? 0;
  const xLabel = study.axis.label;
  const axisInfo = AXIS_INFO[plan.axis ?? 'load'];
  // A grouped study (R3) shows one class at a time in a panel per topology, or all as small multiples.
  const [choice, setChoice] = useState<ClassChoice>(0);
  const classNames = [...points.values()][0]?.classes.map((c) => c.name) ?? [];
  const shown = choice === 'all' ? 'every class' : (classNames[choice] ?? '');
  const plot = (p: StudyPlot) => {
    switch (p.kind) {
      case 'metric': {
        const info = METRIC_INFO[p.metric];
        const scale = info.time ? unit.factor : 1;
        const yLabel = info.time ? `${info.axis} (${unit.unit})` : info.axis;
        const reference = p.reference ? { metric: p.reference, name: METRIC_INFO[p.reference].axis } : undefined;
        const panels = study.groups
          ? groupedPanels(study, plan.configs, loads, points, p.metric, choice, scale)
          : bandPanels(labels, loads, points, p.metric, scale, reference);
        const title = study.groups ? `${p.title} (${shown})` : p.title;
        return (
          <ChartSection key={p.id} prefix={prefix} id={p.id} title={title} csv={() => metricCsv(labels, loads, points, p.metric, axisInfo.csv, p.reference ? [p.reference] : [])}>
            {(ref) => (
              <PanelsChart
                panels={panels}
                logX={axisInfo.logX}
                title={`${title.replace(/ \(.*\)$/, '').replace(/offered load$/, xLabel.toLowerCase())}${study.groups ? `, ${shown}` : ''}`}
                xLabel={xLabel}
                yLabel={yLabel}
                independentY={!info.time}
                svgRef={ref}
              />
            )}
          </ChartSection>
        );
      }
      case 'cdf':
        return cdfRuns.size === 0 ? (
          <p className="note" role="note" key={p.id}>
            Latency CDFs appear when runs at the highest load ({highest}) are in.
          </p>
        ) : (
          <ChartSection
            key={p.id}
            prefix={prefix}
            id={p.id}
            title={`Latency CDF per class at load ${highest}`}
            csv={() =>
              cdfToCsv(
                cdfPanels.flatMap((q) =>
                  q.series.map((s) => ({ label: `${q.title} / ${s.name}`, points: s.points.map(([x, f]) => [x * unit.factor, f] as const) })),
                ),
              )
            }
          >
            {(ref) => (
              <PanelsChart
                panels={cdfPanels}
                title={`Latency CDF per class at ${xLabel.toLowerCase()} ${highest} (all seeds pooled)`}
                xLabel={`Latency (${unit.unit}), log scale`}
                yLabel="Fraction ≤ latency"
                step
                logX
                yDomain={[0, 1]}
                svgRef={ref}
              />
            )}
          </ChartSection>
        );
      case 'jitter':
        return cdfRuns.size === 0 ? null : <JitterSection key={p.id} prefix={prefix} labels={labels} cdfRuns={cdfRuns} highest={highest} />;
      case 'admission':
        return cdfRuns.size === 0 ? null : <AdmissionSection key={p.id} prefix={prefix} labels={labels} cdfRuns={cdfRuns} highest={highest} />;
      case 'cost':
        return <CostSection key={p.id} prefix={prefix} labels={labels} hardware={hardware} />;
      case 'delayTable':
        return cdfRuns.size === 0 ? null : <DelayTableSection key={p.id} prefix={prefix} labels={labels} cdfRuns={cdfRuns} highest={highest} />;
      case 'delaySeries':
        return cdfRuns.size === 0 ? null : <DelaySeriesSection key={p.id} prefix={prefix} labels={labels} cdfRuns={cdfRuns} highest={highest} />;
      case 'improvement':
        return <ImprovementSection key={p.id} prefix={prefix} labels={labels} loads={loads} points={points} baseline={p.baseline} />;
    }
  };
  return (
    <>
      {study.groups ? <ClassChooser prefix={prefix} classes={classNames} choice={choice} onChoice={setChoice} /> : null}
      {study.plots.map(plot)}
    </>
  );
}

/** Runs shorter than this give voice and controlled-load connections no jitter sample (they send every 20–22 ms). */
const JITTER_NOTE = 'no samples: run longer than 20 ms';

/** Jitter CDFs per connection class at the highest load, pooled over the seeds, on a symmetric linear axis. */
function JitterSection({ prefix, labels, cdfRuns, highest }: { prefix: string; labels: string[]; cdfRuns: ReadonlyMap<number, RunSummary[]>; highest: number }) {
  const all = useMemo(() => jitterPanels(labels, cdfRuns), [labels, cdfRuns]);
  const shown = all.filter((p) => p.samples > 0);
  const empty = all.filter((p) => p.samples === 0);
  const unit = chooseTimeUnit(jitterExtent(shown));
  const panels: Panel[] = shown.map((p) => ({
    title: p.title,
    series: p.series.map((s) => ({ ...s, points: s.points.map(([x, f]) => [x / unit.factor, f] as const) })),
  }));
  const csv = () => cdfToCsv(shown.flatMap((p) => p.series.map((s) => ({ label: `${p.title} / ${s.name}`, points: s.points }))));
  return (
    <ChartSection prefix={prefix} id="jitter" title={`Jitter CDF per connection class at load ${highest}`} csv={csv}>
      {(ref) => (
        <>
          <p className="help">
            Jitter of a packet: the change of its connection’s inter-arrival time against its inter-generation time (negative:
            closer together than sent). Signed values on a linear axis symmetric around 0; all seeds pooled; one curve per
            configuration.
          </p>
          {empty.length > 0 ? (
            <ul className="note experiment-jitter-empty" data-testid={`${prefix}-jitter-empty`}>
              {empty.map((p) => (
                <li key={p.title}>
                  <strong>{p.title}</strong> ({JITTER_NOTE})
                </li>
              ))}
            </ul>
          ) : null}
          {panels.length > 0 ? (
            <PanelsChart
              panels={panels}
              title={`Jitter CDF per connection class at total offered load ${highest} (all seeds pooled)`}
              xLabel={`Jitter (${unit.unit}), signed, linear`}
              yLabel="Fraction ≤ jitter"
              step
              symmetricX
              yDomain={[0, 1]}
              svgRef={ref}
            />
          ) : (
            <p className="note">No connection class has jitter samples in these runs.</p>
          )}
        </>
      )}
    </ChartSection>
  );
}
