// The address of the network-processor decision view: `#view=np-decisions&preset=…&from=…&n=…`.
export const NP_DECISIONS_VIEW = 'np-decisions';

export interface DecisionsRequest {
  preset: string;
  fromUs: number;
  decisions: number;
}

const PRESET = /^[a-z0-9][a-z0-9-]{0,60}$/;

/** The request an address asks for (defaults: R6's PCFQ from 5 ms, 60 decisions). */
export function parseDecisionsHash(hash: string): DecisionsRequest {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const preset = p.get('preset') ?? '';
  const from = Number(p.get('from') ?? '');
  const n = Number(p.get('n') ?? '');
  return {
    preset: PRESET.test(preset) ? preset : 'r6-pcfq',
    fromUs: Number.isInteger(from) && from >= 0 ? from : 5000,
    decisions: Number.isInteger(n) && n >= 1 && n <= 1000 ? n : 60,
  };
}

/** The address of a request (without `#`). */
export function decisionsHash(r: DecisionsRequest): string {
  return `view=${NP_DECISIONS_VIEW}&preset=${r.preset}&from=${r.fromUs}&n=${r.decisions}`;
}
