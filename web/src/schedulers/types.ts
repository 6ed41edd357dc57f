// What the web knows about one scheduler kind (`SchedulerUi`), and the pieces a kind's
// module is written with: the editor's parts, the animation's
// sentence context. Types only: every kind's module fills one `SchedulerUi`, and
// `registry.ts` lists them (a record over the generated kinds, so TypeScript asks for a
// new kind's entry).
import type { ClassConfig, Registers, SchedulerConfig, TableEntry, TableSide, Trace } from '../generated';

/** A scheduler kind (`SchedulerConfig['kind']`). */
export type SchedulerKind = SchedulerConfig['kind'];

/** The configuration of one kind. */
export type ConfigOf<K extends SchedulerKind> = Extract<SchedulerConfig, { kind: K }>;

/** A list with one number per class (weights, quanta, priorities, deadlines). */
export interface PerClassList<K extends SchedulerKind> {
  /** The JSON field (also the last part of the engine's field paths). */
  field: string;
  /** Label of one item, e.g. "Quantum". */
  label: string;
  /** Unit of an item, e.g. "bytes". */
  unit: string;
  /** Short label with the unit, e.g. "quantum (B)" (compact editors). */
  short: string;
  /** One paragraph on what the numbers do and their range. */
  help: string;
  min: number;
  max: number;
  step: number | 'any';
  get(config: ConfigOf<K>): readonly number[];
  set(config: ConfigOf<K>, values: number[]): ConfigOf<K>;
}

/** One part of a kind's editor in the link lab, drawn in order by `lab/SchedulerEditor`. */
export type EditorPart<K extends SchedulerKind> =
  /** The per-class list (`SchedulerUi.perClass`), one number field per class. */
  | { part: 'per-class' }
  /** A number field bound to `model.scheduler.<field>`. */
  | {
      part: 'number';
      field: string;
      label: string;
      hint: string;
      min: number;
      max: number;
      step: number;
      get(config: ConfigOf<K>): number;
      set(config: ConfigOf<K>, value: number): ConfigOf<K>;
    }
  /** A weighted table (`lab/TableEditor`) of the given side (`SchedulerUi.weightedTables`). */
  | { part: 'table'; side: TableSide; legend?: string; help?: string }
  /** A table of classes, one per entry (the AS basic table), of one of `sizes` entries. */
  | {
      part: 'class-table';
      field: string;
      legend: string;
      help: string;
      /** Accessible name of entry j: `${entryName} ${j}`; of the grid: `${entryName.replace('entry', 'table')} entries`. */
      entryName: string;
      sizes: readonly number[];
      get(config: ConfigOf<K>): readonly number[];
      set(config: ConfigOf<K>, table: number[]): ConfigOf<K>;
    }
  /** "Fill the table from weights" (`SchedulerUi.fill`). */
  | { part: 'fill' }
  /** A sentence, for kinds with nothing to set. */
  | { part: 'note'; text: string };

/** How "Fill the table from weights" writes a kind's table from an engine service list. */
export interface TableFill<K extends SchedulerKind> {
  /** The table in words: "the table", "the low table". */
  target: string;
  /** Most entries. */
  maxEntries: number;
  /** The only totals allowed (AS basic sizes), if restricted, and the table named for the message. */
  totals?: { sizes: readonly number[]; subject: string };
  /** The one weight every entry gets, if entries have weights. */
  entryWeight?: { min: number; max: number; unit: string };
  /** The classes of the table's entries now, and the first entry's weight. */
  current(config: ConfigOf<K>): { classes: readonly number[]; weight?: number };
  /** `config` with its table replaced by `list` (classes), each entry of weight `weight`. */
  apply(config: ConfigOf<K>, list: readonly number[], weight: number): ConfigOf<K>;
}

/** What the animation's sentence for one decision is written from (see `animation/explain.ts`). */
export interface ExplainContext {
  trace: Trace;
  /** The decision's index. */
  k: number;
  /** Registers before and after the decision. */
  before: Registers;
  after: Registers;
  /** The sending class's name. */
  who: string;
  /** "1024 B (16 credits)". */
  packet: string;
  /** "the packet is 1024 B (16 credits)". */
  head: string;
  /** The selected entry of a table after the decision (null before any). */
  pointer(registers: Registers, side: 'main' | 'high' | 'low'): number | null;
  /** The weight of entry `entry` of a table (undefined when unknown). */
  weightOf(side: 'main' | 'high' | 'low', entry: number | null): number | undefined;
  /** How the sender's head tag compares with the other heads: " 11.5, against B 14". */
  tagCompare(tags: readonly (number | null)[] | undefined): string;
  /** A number as shown (at most 2 decimals). */
  formatValue(v: number): string;
  /** "5 credits". */
  credits(n: number): string;
}

/** Everything the web knows about one scheduler kind. */
export interface SchedulerUi<K extends SchedulerKind> {
  kind: K;
  /** Menu label, e.g. "DRR (Deficit Round Robin)". */
  label: string;
  /** Short name for legends and run labels, e.g. "DRR". */
  short: string;
  /** Title of the animation, e.g. "Deficit Round Robin (DRR)". */
  title: string;
  /** One sentence on how it chooses. */
  description: string;
  /** The configuration with a class appended (index `n`, the old class count). */
  withClassAdded(config: ConfigOf<K>, added: ClassConfig, n: number): ConfigOf<K>;
  /** The configuration without class `i` (of `n`), later classes renumbered. */
  withClassRemoved(config: ConfigOf<K>, i: number, n: number): ConfigOf<K>;
  /**
   * Caption of the share table (kinds with weights), or why there are no shares. (The
   * shares themselves are the engine's: `useSchedulerShares` in `engine/editorEngine.ts`.)
   */
  sharesNote: string;
  /** The class of every table entry (both tables), for kinds with tables. */
  tableClasses?(config: ConfigOf<K>): readonly number[];
  /** Tables of (class, weight) entries by side, as the table editor reads and writes them. */
  weightedTables?: {
    /** The entries of `side` (undefined when the kind has no such table). */
    get(config: ConfigOf<K>, side: TableSide): readonly TableEntry[] | undefined;
    set(config: ConfigOf<K>, side: TableSide, entries: TableEntry[]): ConfigOf<K>;
    /** Most entries of a side and the range of an entry's weight. */
    limits(side: TableSide): { maxEntries: number; minWeight: number; maxWeight: number };
  };
  perClass?: PerClassList<K>;
  /** The link lab's editor, part by part. */
  editor: readonly EditorPart<K>[];
  fill?: TableFill<K>;
  animation: {
    /** Unit of the deficit counters, for kinds that have them. */
    deficitUnit?: 'B' | 'credits';
    /** The kind turns a round robin (`registers.selected` moves between classes). */
    roundRobin?: boolean;
    /** Glossary terms (ids of `animation/explain.ts`'s `GLOSSARY`) next to the animation. */
    glossary: readonly string[];
    /** Why decision `ctx.k` went to its class, without the final full stop. */
    explain(ctx: ExplainContext): string;
  };
}
