// Rows of number fields described by data: a section lists what differs per row (path,
// label, value, limits, hint, what an edit changes) instead of repeating the field.
import { NumberField, type NumberFieldProps } from './fields';

/** One row: a number field's props (its path keys it). */
export type NumberRow = NumberFieldProps;

/** The rows, in order, each a {@link NumberField}. */
export function NumberRows({ rows }: { rows: readonly NumberRow[] }) {
  return (
    <>
      {rows.map((row) => (
        <NumberField key={row.path} {...row} />
      ))}
    </>
  );
}
