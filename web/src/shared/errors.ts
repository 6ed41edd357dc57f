// Engine errors as the UI shows them: per field (by JSON path), in a summary, and in one
// sentence for banners.
import type { EngineError, FieldError, Scenario } from '../generated';
import { modelClasses } from './edit';

/** The DOM id of the input (or group) that edits the field at `path`. */
export function fieldId(path: string): string {
  return `f-${path === '' ? 'document' : path}`;
}

/** The DOM id of the message element of the field at `path`. */
export function errorId(path: string): string {
  return `${fieldId(path)}-error`;
}

/** Rewrites the parser's type messages ("invalid type: null, expected u64") in plain words. */
export function friendlyMessage(message: string): string {
  const m = /^invalid type: (.*), expected (u8|u16|u32|u64|i32|i64|f32|f64)$/.exec(message);
  if (!m) return message;
  const [, got = '', expected = ''] = m;
  const what = expected.startsWith('f') ? 'a number' : 'a whole number';
  if (got === 'null') return `must be ${what}`;
  const value = /`([^`]*)`/.exec(got)?.[1];
  return value !== undefined ? `must be ${what} (got ${value})` : `must be ${what} (got ${got})`;
}

/** Every field problem of an engine error (none for null). */
export function fieldErrors(error: EngineError | null): FieldError[] {
  if (!error) return [];
  switch (error.kind) {
    case 'invalid':
      return error.errors.map((e) => ({ path: e.path, message: friendlyMessage(e.message) }));
    case 'syntax':
      return [{ path: '', message: `JSON syntax error at line ${error.line}, column ${error.column}: ${error.message}` }];
    case 'internal':
      return [{ path: '', message: `engine error: ${error.message}` }];
    case 'budget':
      return [{ path: '', message: `the run stopped (${error.figure} ${error.value} over its budget of ${error.limit}): ${error.message}` }];
  }
}

/** Field problems grouped by path. */
export type ErrorsByPath = ReadonlyMap<string, readonly string[]>;

export function groupByPath(errors: readonly FieldError[]): ErrorsByPath {
  const map = new Map<string, string[]>();
  for (const e of errors) {
    const list = map.get(e.path);
    if (list) list.push(e.message);
    else map.set(e.path, [e.message]);
  }
  return map;
}

const GENERAL: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  seed: 'Seed',
  duration_us: 'Duration',
  warmup_us: 'Warm-up',
  'model.link.rate_gbps': 'Link rate',
  'model.downstream.buffer_bytes': 'Downstream buffer',
  'model.downstream.drain_rate_gbps': 'Drain rate',
  'model.downstream.credit_delay_ns': 'Credit delay',
  'model.classes': 'Classes',
  'model.scheduler.table': 'Table',
  'model.topology': 'Topology',
  'model.routing': 'Routing',
  'model.switch.speedup': 'Crossbar speedup',
  'model.switch.header_crossing_ns': 'Header crossing',
  'model.switch.input_buffer_bytes': 'Switch input buffer',
  'model.switch.output_buffer_bytes': 'Switch output buffer',
  'model.interface.buffer_bytes': 'Interface buffer',
  'model.link.latency_ns': 'Link latency',
  'model.link.credit_delay_ns': 'Credit return delay',
  'model.interface_scheduler': 'Interface scheduler',
  'model.switch_scheduler': 'Switch scheduler',
};

/** Topology fields of a network, by name. */
const TOPOLOGY_FIELDS: Record<string, string> = {
  ports: 'ports',
  end_points: 'end points',
  switch_ports: 'ports per switch',
  k: 'arity k',
  n: 'stages n',
  dims: 'dimensions',
  trunk_ports: 'trunk ports',
  end_points_per_switch: 'end points per switch',
};

const CLASS_FIELDS: Record<string, string> = {
  name: 'name',
  drain_rate_gbps: 'drain rate',
  'traffic.load': 'load',
  'traffic.arrivals': 'arrivals',
  'traffic.size': 'size',
  'traffic.size.bytes': 'packet size',
  'traffic.size.min_bytes': 'min size',
  'traffic.size.max_bytes': 'max size',
  'traffic.size.shape': 'shape',
};

/** A human name for the field at `path` ("Class 2 “Bulk” › load"), falling back to the path. */
export function describePath(path: string, scenario: Scenario): string {
  if (path === '') return 'Scenario';
  const general = GENERAL[path];
  if (general) return general;
  const cls = /^model\.classes\[(\d+)\](?:\.(.+))?$/.exec(path);
  if (cls) {
    const i = Number(cls[1]);
    const name = modelClasses(scenario.model)[i]?.name;
    const head = name ? `Class ${i} “${name}”` : `Class ${i}`;
    const rest = cls[2];
    if (rest === undefined) return head;
    return `${head} › ${CLASS_FIELDS[rest] ?? rest}`;
  }
  const topology = /^model\.topology\.(.+)$/.exec(path);
  if (topology) {
    const field = topology[1] ?? '';
    const dim = /^dims\[(\d+)\]$/.exec(field);
    return `Topology › ${dim ? `ring size of dimension ${Number(dim[1]) + 1}` : (TOPOLOGY_FIELDS[field] ?? field)}`;
  }
  const entry = /^model\.scheduler\.table\[(\d+)\](?:\.(.+))?$/.exec(path);
  if (entry) {
    const head = `Table entry ${entry[1]}`;
    return entry[2] === undefined ? head : `${head} › ${entry[2]}`;
  }
  return path;
}

/** One line per problem, `path: message` (the path alone names the field for machines and people). */
export function engineErrorLines(error: EngineError): string[] {
  return fieldErrors(error).map((e) => (e.path === '' ? e.message : `${e.path}: ${e.message}`));
}
