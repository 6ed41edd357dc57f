// Where a network class's packets (bursts, connections) go: the pattern and its parameters.
import { NumberField, SelectField } from '../form/fields';
import type { Edit } from '../form/types';
import type { DestinationConfig, NetworkClassConfig, PermutationPattern, ZipfRanking } from '../generated';
import { DESTINATIONS, editClass, setDestinations, type DestinationKind } from './edit';

interface Props {
  index: number;
  cls: NetworkClassConfig;
  onEdit: Edit;
}

const KINDS = (Object.keys(DESTINATIONS) as DestinationKind[]).map((k) => ({ value: k, label: DESTINATIONS[k].label }));
const RANKINGS: readonly { value: ZipfRanking; label: string }[] = [
  { value: 'random', label: 'Random' },
  { value: 'distance', label: 'By distance' },
];
const PATTERNS: readonly { value: PermutationPattern; label: string }[] = [
  { value: 'random_derangement', label: 'Random derangement' },
  { value: 'bit_complement', label: 'Bit complement' },
  { value: 'bit_reversal', label: 'Bit reversal' },
];

export function DestinationFields({ index: i, cls, onEdit }: Props) {
  const d = cls.traffic.destinations;
  const at = `model.classes[${i}].traffic.destinations`;
  const setDest = (f: (d: DestinationConfig) => DestinationConfig) =>
    onEdit((s) => editClass(s, i, (c) => ({ ...c, traffic: { ...c.traffic, destinations: f(c.traffic.destinations) } })));
  return (
    <>
      <SelectField path={at} label="Destinations" value={d.kind} options={KINDS} onChange={(k) => onEdit((s) => setDestinations(s, i, k))} />
      {d.kind === 'zipf' ? (
        <>
          <NumberField
            path={`${at}.exponent`}
            label="Zipf exponent"
            value={d.exponent}
            min={0}
            step={0.1}
            hint="0 = uniform; larger = hotter."
            onChange={(v) => setDest((x) => (x.kind === 'zipf' ? { ...x, exponent: v } : x))}
          />
          <SelectField path={`${at}.ranking`} label="Ranking" value={d.ranking} options={RANKINGS} onChange={(v) => setDest((x) => (x.kind === 'zipf' ? { ...x, ranking: v } : x))} />
        </>
      ) : null}
      {d.kind === 'hot_spot' ? (
        <>
          <NumberField path={`${at}.endpoint`} label="Hot end point" value={d.endpoint} min={0} step={1} onChange={(v) => setDest((x) => (x.kind === 'hot_spot' ? { ...x, endpoint: v } : x))} />
          <NumberField
            path={`${at}.fraction`}
            label="Fraction to the hot spot"
            value={d.fraction}
            min={0}
            step={0.05}
            onChange={(v) => setDest((x) => (x.kind === 'hot_spot' ? { ...x, fraction: v } : x))}
          />
        </>
      ) : null}
      {d.kind === 'permutation' ? (
        <SelectField path={`${at}.pattern`} label="Pattern" value={d.pattern} options={PATTERNS} onChange={(v) => setDest((x) => (x.kind === 'permutation' ? { ...x, pattern: v } : x))} />
      ) : null}
    </>
  );
}
