// The views of the page, registered in one place: id, title, tagline, which addresses open
// it, whether the header lists it, and how it is drawn.
// App.tsx picks the first view whose `matches` accepts the address (the link lab last).
import type { ReactNode } from 'react';
import { DesignView } from './design/DesignView';
import { isDesignHash } from './design/route';
import type { Engine, SweepEngine } from './engine/client';
import { ExperimentView } from './experiment/ExperimentView';
import { STUDY_VIEW, VIEW_PARAM, studyPrefix } from './experiment/route';
import type { Scenario } from './generated';
import { LinkLab } from './lab/LinkLab';
import { LessonsView } from './lessons/LessonsView';
import { NpDecisionsView } from './npdecisions/NpDecisionsView';
import { NP_DECISIONS_VIEW } from './npdecisions/route';

/** What a view is drawn with. */
export interface ViewContext {
  engine: Engine;
  createEngine?: () => SweepEngine;
  /** The address the view was opened at. */
  hash: string;
  /** Opens the link lab on a scenario. */
  simulate: (scenario: Scenario) => void;
}

export interface ViewEntry {
  id: string;
  /** The header's name of the view (and the subtitle while it is open). */
  title: string;
  tagline: string;
  /** Whether an address (with or without `#`) opens this view. */
  matches: (hash: string) => boolean;
  /** The address (without `#`) the header's button opens. */
  hash: string;
  /** Listed in the header (false: reached by links only). */
  nav: boolean;
  /** Its header button stays enabled inside the view at another address (e.g. back to the lessons index from a lesson). */
  reopen?: boolean;
  render: (ctx: ViewContext) => ReactNode;
}

const viewParam = (hash: string) => new URLSearchParams(hash.replace(/^#/, '')).get(VIEW_PARAM);
const always = () => true;

/** A study opened under its own short address (`#view=<alias>&…`): e.g. R2's `#view=r2`. */
function studyAlias(alias: string, studyId: string, title: string, tagline: string): ViewEntry {
  return {
    id: alias,
    title,
    tagline,
    matches: (h) => viewParam(h) === alias,
    hash: `${VIEW_PARAM}=${alias}`,
    nav: true,
    render: (ctx) => (
      <ExperimentView key={studyId} engine={ctx.engine} createEngine={ctx.createEngine} studyId={studyId} prefix={`${VIEW_PARAM}=${alias}`} initialHash={ctx.hash} />
    ),
  };
}

export const LAB_VIEW: ViewEntry = {
  id: 'lab',
  title: 'Link lab',
  tagline: 'QoS scheduling on one output port: table, fair-queueing and priority schedulers, latency and throughput per class.',
  matches: always,
  hash: '',
  nav: true,
  render: (ctx) => <LinkLab engine={ctx.engine} createEngine={ctx.createEngine} />,
};

/** Every view; the link lab last (it takes every other address). */
export const VIEWS: readonly ViewEntry[] = [
  {
    id: 'design',
    title: 'Table designer',
    tagline: 'Arbitration tables from requirements: latency by distance, bandwidth by weight, a worst-case wait bound per class, OpenSM, Omni-Path FM and Linux ETS export.',
    matches: isDesignHash,
    hash: `${VIEW_PARAM}=design`,
    nav: true,
    render: (ctx) => {
      return (
        <main className="design-view-main">
          <DesignView engine={ctx.engine} onSimulate={ctx.simulate} />
        </main>
      );
    },
  },
  studyAlias('r2', 'r2', 'Multimedia network (R2)', 'QoS scheduling in a 64-node network: four schedulers swept over offered load, with confidence bands.'),
  studyAlias('r3', 'r3', 'InfiniBand vs Omni-Path (R3)', 'Flat against hierarchical switches with DTable: latency and throughput per SL against load, a panel per topology.'),
  studyAlias('r4', 'r4', 'Two VCs at the switches (R4)', 'Do switches need a VC per class? Four switch designs: QoS latency and jitter, best-effort throughput, cost.'),
  studyAlias('r5', 'r5', 'DWCS on a network processor (R5)', 'Exact heap against constant-time HILQ: window violations, memory accesses and cycles per packet against utilisation.'),
  studyAlias('r6', 'r6', 'PCFQ on a network processor (R6)', 'PCFQ against two separate WFQ schedulers on a network processor: delay per packet over time, and mean, maximum and spread per category.'),
  {
    id: 'study',
    title: 'Experiment',
    tagline: 'A study described as data: configurations swept over offered load (or a network processor’s streams or packet size), with confidence bands.',
    matches: (h) => viewParam(h) === STUDY_VIEW,
    hash: studyPrefix('r2'),
    nav: false,
    render: (ctx) => {
      const id = new URLSearchParams(ctx.hash.replace(/^#/, '')).get('id') ?? '';
      return <ExperimentView key={id} engine={ctx.engine} createEngine={ctx.createEngine} studyId={id} prefix={studyPrefix(id)} initialHash={ctx.hash} />;
    },
  },
  {
    id: NP_DECISIONS_VIEW,
    title: 'Network-processor decisions',
    tagline: 'PCFQ and separate WFQ decision by decision: virtual time, finish tags, predicted against actual cost, the engines and the link.',
    matches: (h) => viewParam(h) === NP_DECISIONS_VIEW,
    hash: `${VIEW_PARAM}=${NP_DECISIONS_VIEW}`,
    nav: false,
    render: (ctx) => <NpDecisionsView engine={ctx.engine} hash={ctx.hash} />,
  },
  {
    id: 'lessons',
    title: 'Lessons',
    tagline: 'Guided lessons: open a view on a scenario, look at one thing, answer a question checked against the run.',
    matches: (h) => viewParam(h) === 'lessons',
    hash: `${VIEW_PARAM}=lessons`,
    nav: true,
    reopen: true,
    render: (ctx) => <LessonsView engine={ctx.engine} hash={ctx.hash} />,
  },
  LAB_VIEW,
];

/** The view an address opens. */
export function viewOf(hash: string): ViewEntry {
  return VIEWS.find((v) => v.matches(hash)) ?? LAB_VIEW;
}
