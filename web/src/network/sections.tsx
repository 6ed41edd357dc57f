// The sections of the network editor, registered in one place and drawn in this order.
// A new part of the network model gets its editor here: one entry naming its title and
// the component that edits it (docs/architecture.md, "Adding a section to the network
// editor").
import type { ComponentType } from 'react';
import { AdmissionSection } from './AdmissionSection';
import { BasicsSection } from './BasicsSection';
import { NetworkClassesSection } from './NetworkClassesSection';
import { LanesSection } from './LanesSection';
import { LinksSection } from './LinksSection';
import { SchedulersSection } from './SchedulersSection';
import { SwitchSection } from './SwitchSection';
import { TopologySection } from './TopologySection';
import type { SectionProps } from './sectionProps';

export interface NetworkSection {
  /** Stable id (also the DOM id of the section's heading). */
  id: string;
  title: string;
  Editor: ComponentType<SectionProps>;
}

export const NETWORK_SECTIONS: readonly NetworkSection[] = [
  { id: 'net-basics', title: 'General', Editor: BasicsSection },
  { id: 'net-topology', title: 'Topology and routing', Editor: TopologySection },
  { id: 'net-switch', title: 'Switch', Editor: SwitchSection },
  { id: 'net-lanes', title: 'Lanes', Editor: LanesSection },
  { id: 'net-links', title: 'Links and interfaces', Editor: LinksSection },
  { id: 'net-classes', title: 'Traffic classes', Editor: NetworkClassesSection },
  { id: 'net-admission', title: 'Admission control', Editor: AdmissionSection },
  { id: 'net-schedulers', title: 'Schedulers', Editor: SchedulersSection },
];
