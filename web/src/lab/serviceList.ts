// The engine's service lists, available to the scheduler editors (null without an engine
// that offers them, e.g. in tests).
import { createContext, useContext } from 'react';
import type { ServiceListOutcome } from '../engine/client';

/** Computes a service list of `kind` for integer `weights`. */
export type ServiceListFn = (kind: string, weights: number[]) => Promise<ServiceListOutcome>;

export const ServiceListContext = createContext<ServiceListFn | null>(null);

export function useServiceList(): ServiceListFn | null {
  return useContext(ServiceListContext);
}
