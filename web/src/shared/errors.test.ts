import { describe, expect, it } from 'vitest';
import { defaultScenario } from '../state/scenario';
import { describePath, engineErrorLines, fieldErrors, friendlyMessage, groupByPath } from './errors';

describe('engine errors in the UI', () => {
  it('rewrites type errors in words', () => {
    expect(friendlyMessage('invalid type: null, expected u64')).toBe('must be a whole number');
    expect(friendlyMessage('invalid type: null, expected f64')).toBe('must be a number');
    expect(friendlyMessage('invalid type: floating point `1.5`, expected u32')).toBe('must be a whole number (got 1.5)');
    expect(friendlyMessage('must not be empty')).toBe('must not be empty');
  });

  it('lists every problem with its path', () => {
    const e = {
      kind: 'invalid' as const,
      errors: [
        { path: 'model.scheduler.table[3].weight', message: 'must be between 1 and 65535 credits (got 0)' },
        { path: 'seed', message: 'invalid type: null, expected u64' },
        { path: 'seed', message: 'second' },
      ],
    };
    expect(engineErrorLines(e)).toEqual([
      'model.scheduler.table[3].weight: must be between 1 and 65535 credits (got 0)',
      'seed: must be a whole number',
      'seed: second',
    ]);
    expect(groupByPath(fieldErrors(e)).get('seed')).toEqual(['must be a whole number', 'second']);
    expect(engineErrorLines({ kind: 'syntax', message: 'EOF', line: 1, column: 14 })).toEqual([
      'JSON syntax error at line 1, column 14: EOF',
    ]);
    expect(fieldErrors(null)).toEqual([]);
  });

  it('names fields in words', () => {
    const s = defaultScenario();
    expect(describePath('model.classes[2].traffic.load', s)).toBe('Class 2 “Bulk” › load');
    expect(describePath('model.classes[9]', s)).toBe('Class 9');
    expect(describePath('model.scheduler.table[3].weight', s)).toBe('Table entry 3 › weight');
    expect(describePath('duration_us', s)).toBe('Duration');
    expect(describePath('model.unknown', s)).toBe('model.unknown');
    expect(describePath('model.topology.trunk_ports', s)).toBe('Topology › trunk ports');
    expect(describePath('model.topology.dims[1]', s)).toBe('Topology › ring size of dimension 2');
    expect(describePath('model.routing', s)).toBe('Routing');
  });
});
