// One traffic class: name, offered load, arrivals and packet sizes, with its table share.
import { memo } from 'react';
import { colorFor } from '../charts/palette';
import type { ClassConfig } from '../generated';
import {
  creditsFor,
  maxBytes,
  removeClass,
  setClassArrivalField,
  setClassArrivals,
  setClassLoad,
  setClassName,
  setClassSizeField,
  setClassSizeKind,
  type AnyArrivalKind,
  type SizeKind,
} from '../shared/edit';
import { fieldId } from '../shared/errors';
import { FieldMessages, NumberField, SelectField, TextField } from '../form/fields';
import { useFieldErrors } from '../form/fieldErrors';
import type { Edit } from '../form/types';

const ARRIVALS: readonly { value: AnyArrivalKind; label: string }[] = [
  { value: 'constant', label: 'Constant (CBR)' },
  { value: 'poisson', label: 'Poisson' },
  { value: 'on_off', label: 'On/off' },
  { value: 'bursts', label: 'Bursts' },
];

const SIZES: readonly { value: SizeKind; label: string }[] = [
  { value: 'fixed', label: 'Fixed' },
  { value: 'uniform', label: 'Uniform' },
  { value: 'pareto', label: 'Bounded Pareto' },
];

interface Props {
  index: number;
  cls: ClassConfig;
  /** Bandwidth share of the class under the scheduler (0..1), null if it has none. */
  /** The engine's share of the class (null: the scheduler reserves none; undefined: not answered yet). */
  share: number | null | undefined;
  /** An edit since: the share shown is the previous one. */
  shareUpdating: boolean;
  /** Why the engine gave no shares, else null. */
  shareError: string | null;
  linkRateGbps: number;
  canRemove: boolean;
  onEdit: Edit;
}

function percent(x: number): string {
  return `${(x * 100).toFixed(1)} %`;
}

export const ClassEditor = memo(function ClassEditor({ index: i, cls, share, shareUpdating, shareError, linkRateGbps, canRemove, onEdit }: Props) {
  const at = `model.classes[${i}]`;
  const classMessages = useFieldErrors(at);
  const t = cls.traffic;
  const size = t.size;
  const loadHint =
    Number.isFinite(t.load) && Number.isFinite(linkRateGbps)
      ? `${percent(t.load)} of the link = ${(t.load * linkRateGbps).toFixed(3).replace(/\.?0+$/, '')} Gb/s`
      : undefined;
  const mtu = maxBytes(size);
  const legendId = `${fieldId(at)}-legend`;
  return (
    <fieldset className={`card class-card${classMessages.length > 0 ? ' has-error' : ''}`} id={fieldId(at)} tabIndex={-1} aria-labelledby={legendId}>
      <legend id={legendId}>
        <span className="swatch" style={{ background: colorFor(i) }} aria-hidden="true" />
        Class {i}
        <span className="visually-hidden">{cls.name ? ` ${cls.name}` : ''}</span>
      </legend>
      <div className="class-head">
        {shareError !== null ? (
          <span className="class-share" data-testid={`share-${i}`} title={shareError}>
            Share unavailable
          </span>
        ) : share === undefined ? (
          <span className="class-share" data-testid={`share-${i}`} aria-busy="true">
            Scheduler share …
          </span>
        ) : share === null ? (
          <span className="class-share" data-testid={`share-${i}`} aria-busy={shareUpdating}>
            No reserved share
          </span>
        ) : (
          <span className="class-share" data-testid={`share-${i}`} aria-busy={shareUpdating}>
            Scheduler share <strong>{percent(share)}</strong>
            {Number.isFinite(t.load) && t.load > share + 1e-9 && t.load > 0 ? (
              <span className="note"> (below its load of {percent(t.load)})</span>
            ) : null}
          </span>
        )}
        <button
          type="button"
          className="small danger"
          disabled={!canRemove}
          aria-label={`Remove class ${i} ${cls.name}`}
          title={canRemove ? 'Remove this class and its table entries' : 'A scenario needs at least one class'}
          onClick={() => onEdit((s) => removeClass(s, i))}
        >
          Remove
        </button>
      </div>
      <FieldMessages path={at} messages={classMessages} />
      <div className="grid">
        <TextField path={`${at}.name`} label="Name" value={cls.name} maxLength={40} onChange={(v) => onEdit((s) => setClassName(s, i, v))} />
        <NumberField
          path={`${at}.traffic.load`}
          label="Load (fraction of link)"
          value={t.load}
          min={0}
          max={4}
          step={0.01}
          hint={loadHint}
          onChange={(v) => onEdit((s) => setClassLoad(s, i, v))}
        />
        <SelectField
          path={`${at}.traffic.arrivals`}
          label="Arrivals"
          value={t.arrivals.kind}
          options={ARRIVALS}
          onChange={(v) => onEdit((s) => setClassArrivals(s, i, v))}
        />
        {t.arrivals.kind === 'on_off' ? (
          <>
            <NumberField
              path={`${at}.traffic.arrivals.mean_on_us`}
              label="Mean on period (µs)"
              value={t.arrivals.mean_on_us}
              min={0}
              step={1}
              hint="Exponential; constant rate while on."
              onChange={(v) => onEdit((s) => setClassArrivalField(s, i, 'mean_on_us', v))}
            />
            <NumberField
              path={`${at}.traffic.arrivals.mean_off_us`}
              label="Mean off period (µs)"
              value={t.arrivals.mean_off_us}
              min={0}
              step={1}
              hint={
                t.arrivals.mean_on_us > 0 && Number.isFinite(t.load)
                  ? `Peak ${percent((t.load * (t.arrivals.mean_on_us + t.arrivals.mean_off_us)) / t.arrivals.mean_on_us)} of the link while on`
                  : undefined
              }
              onChange={(v) => onEdit((s) => setClassArrivalField(s, i, 'mean_off_us', v))}
            />
          </>
        ) : null}
        {t.arrivals.kind === 'bursts' ? (
          <NumberField
            path={`${at}.traffic.arrivals.packets`}
            label="Packets per burst"
            value={t.arrivals.packets}
            min={1}
            max={100000}
            step={1}
            hint="All at once; Poisson gaps between bursts."
            onChange={(v) => onEdit((s) => setClassArrivalField(s, i, 'packets', v))}
          />
        ) : null}
        <SelectField
          path={`${at}.traffic.size`}
          label="Packet size"
          value={size.kind}
          options={SIZES}
          onChange={(v) => onEdit((s) => setClassSizeKind(s, i, v))}
        />
        {size.kind === 'fixed' ? (
          <NumberField
            path={`${at}.traffic.size.bytes`}
            label="Size (bytes)"
            value={size.bytes}
            min={1}
            max={65536}
            step={1}
            hint={Number.isFinite(mtu) ? `${creditsFor(mtu)} credits` : undefined}
            onChange={(v) => onEdit((s) => setClassSizeField(s, i, 'bytes', v))}
          />
        ) : (
          <>
            <NumberField
              path={`${at}.traffic.size.min_bytes`}
              label="Min size (bytes)"
              value={size.min_bytes}
              min={1}
              max={65536}
              step={1}
              onChange={(v) => onEdit((s) => setClassSizeField(s, i, 'min_bytes', v))}
            />
            <NumberField
              path={`${at}.traffic.size.max_bytes`}
              label="Max size (bytes)"
              value={size.max_bytes}
              min={1}
              max={65536}
              step={1}
              hint={Number.isFinite(mtu) ? `MTU ${creditsFor(mtu)} credits` : undefined}
              onChange={(v) => onEdit((s) => setClassSizeField(s, i, 'max_bytes', v))}
            />
          </>
        )}
        {size.kind === 'pareto' ? (
          <NumberField
            path={`${at}.traffic.size.shape`}
            label="Shape (tail index)"
            value={size.shape}
            min={0}
            max={100}
            step={0.1}
            hint="Smaller is heavier-tailed."
            onChange={(v) => onEdit((s) => setClassSizeField(s, i, 'shape', v))}
          />
        ) : null}
      </div>
    </fieldset>
  );
});
