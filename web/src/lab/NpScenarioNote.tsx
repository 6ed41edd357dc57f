// A network-processor node opened in the link lab (a share link, a file, an experiment's
// "inspect" link): the lab has no editor for it, so it says what the node is and where it is
// studied, and runs it as it is (its results add the node's figures, `NpResultsTable`).
import type { NetworkProcessorConfig, Scenario } from '../generated';
import { formatCount } from '../shared/format';

export type NpScenario = Scenario & { model: { kind: 'network_processor' } & NetworkProcessorConfig };

/** Whether the scenario's model is a network-processor node. */
export function isNetworkProcessor(s: Scenario): s is NpScenario {
  return s.model.kind === 'network_processor';
}

/** What each scheduler is called, and the views that study it (address without `#`, name). */
const SCHEDULERS: Record<NetworkProcessorConfig['scheduler']['kind'], { name: string; views: [string, string][] }> = {
  dwcs_heap: {
    name: 'DWCS with two heaps (exact)',
    views: [
      ['view=r5', 'DWCS on a network processor (R5): window violations vs U'],
      ['view=study&id=r5-streams', 'memory accesses vs streams'],
      ['view=study&id=r5-budget', 'cost vs the link’s budget'],
    ],
  },
  dwcs_hilq: {
    name: 'DWCS with HILQ (constant time)',
    views: [
      ['view=r5', 'DWCS on a network processor (R5): window violations vs U'],
      ['view=study&id=r5-streams', 'memory accesses vs streams'],
      ['view=study&id=r5-budget', 'cost vs the link’s budget'],
    ],
  },
  pcfq: { name: 'PCFQ (processor and link scheduled together)', views: [['view=r6', 'PCFQ on a network processor (R6)']] },
  separate_wfq: { name: 'two separate WFQ schedulers (processor, link)', views: [['view=r6', 'PCFQ on a network processor (R6)']] },
};

/** One line about the node: streams in groups, the server, the link, the scheduler. */
export function npSummary(np: NetworkProcessorConfig): string {
  const streams = np.streams.reduce((a, g) => a + g.count, 0);
  const groups = np.streams.length;
  const server = np.server.kind === 'link' ? 'the link as the server' : `${np.server.count} processing engine${np.server.count === 1 ? '' : 's'}`;
  return `${formatCount(streams)} stream${streams === 1 ? '' : 's'} in ${groups} group${groups === 1 ? '' : 's'}, ${server}, a ${np.link.rate_gbps} Gb/s link, a ${np.processor.clock_mhz} MHz clock, scheduled by ${SCHEDULERS[np.scheduler.kind].name}.`;
}

export function NpScenarioNote({ scenario }: { scenario: NpScenario }) {
  const np = scenario.model;
  const views = SCHEDULERS[np.scheduler.kind].views;
  return (
    <section className="editor-body np-note" aria-labelledby="np-note-title" data-testid="np-note">
      <h3 id="np-note-title">Network-processor node</h3>
      <p>
        “{scenario.name}” is a network-processor node: {npSummary(np)}
      </p>
      <p className="help">
        The link lab has no editor for network-processor nodes: Run simulates it as it is, and the results add its per-group packets,
        drops and window violations and its scheduling cost. To change it, download it (Download scenario) and edit the JSON
        (docs/network-processors.md describes the fields), then open it again. Its experiments:{' '}
        {views.map(([hash, name], i) => (
          <span key={hash}>
            {i > 0 ? ' · ' : null}
            <a href={`#${hash}`}>{name}</a>
          </span>
        ))}
        ; decision by decision: <a href="#view=np-decisions">network-processor decisions</a>.
      </p>
    </section>
  );
}
