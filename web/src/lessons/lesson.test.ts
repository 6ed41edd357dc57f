import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResults } from '../generated';
import { parseLesson, optionValues, questionOptions, rightOption, type LessonQuestion } from './lesson';

const file = (p: string) => readFileSync(join(process.cwd(), 'public', p), 'utf8');
const index = JSON.parse(file('lessons/index.json')) as { lessons: { id: string }[] };

describe('lesson files', () => {
  it('every lesson of the index parses, and every link and run names a preset that exists', () => {
    expect(index.lessons.map((l) => l.id)).toEqual(['r1-deficits', 'r2-decoupling', 'r3-switches', 'r4-two-vcs', 'r5-dwcs', 'r6-pcfq']);
    for (const { id } of index.lessons) {
      const parsed = parseLesson(file(`lessons/${id}.json`));
      if (!parsed.ok) throw new Error(`${id}: ${parsed.problems.join('; ')}`);
      expect(parsed.lesson.id).toBe(id);
      for (const step of parsed.lesson.steps) {
        const preset = step.open ? new URLSearchParams(step.open.hash).get('preset') : null;
        if (preset) expect(existsSync(join(process.cwd(), 'public/presets', `${preset}.json`)), preset).toBe(true);
        for (const run of step.question?.runs ?? []) expect(existsSync(join(process.cwd(), 'public/presets', `${run.preset}.json`)), run.preset).toBe(true);
        // Lessons stay short in a browser: a question's runs simulate at most 20 ms each.
        for (const run of step.question?.runs ?? []) expect(run.durationUs ?? Infinity).toBeLessThanOrEqual(20_000);
      }
    }
  });

  it('refuses a lesson with every problem named', () => {
    const bad = parseLesson(JSON.stringify({ format: 1, id: 'x', title: 'X', steps: [{ title: 'S', text: 'T', question: { text: 'Q', among: 'classes', pick: 'most', metric: 'speed', runs: [], why: 'W' } }] }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.problems).toEqual([
        'steps[0].question.pick: "highest" or "lowest"',
        'steps[0].question.metric: one of throughput, meanNs, p99Ns, stdNs, violations, accessesPerPacket, cyclesPerPacket',
        'steps[0].question.runs: exactly one run to compare classes in',
        'steps[0].question.choices: the classes offered (two or more)',
      ]);
    }
    expect(parseLesson('{').ok).toBe(false);
  });
});

const results = (classes: [string, number, number][]): RunResults =>
  ({ classes: classes.map(([name, throughput, mean]) => ({ name, throughput, latency_ns: { mean, p99: mean * 2 } })) }) as unknown as RunResults;

describe('checking an answer against runs', () => {
  it('among classes: the class with the highest (lowest) metric', () => {
    const q: LessonQuestion = { text: '', among: 'classes', pick: 'lowest', metric: 'meanNs', class: null, choices: ['VO', 'BE'], runs: [], why: '' };
    const values = optionValues(q, [results([['NC', 0.1, 50], ['VO', 0.2, 900], ['BE', 0.3, 400]])]);
    expect(values).toEqual([
      { option: 'VO', value: 900 },
      { option: 'BE', value: 400 },
    ]);
    expect(rightOption(q, values)).toBe('BE');
    expect(rightOption({ ...q, pick: 'highest' }, values)).toBe('VO');
    expect(questionOptions(q)).toEqual(['VO', 'BE']);
  });

  it('among configurations: one class compared across runs; no value, no answer', () => {
    const runs = [
      { label: 'A', preset: 'a', load: null, durationUs: null },
      { label: 'B', preset: 'b', load: null, durationUs: null },
    ];
    const q: LessonQuestion = { text: '', among: 'configurations', pick: 'highest', metric: 'throughput', class: '64 B', choices: [], runs, why: '' };
    expect(questionOptions(q)).toEqual(['A', 'B']);
    const values = optionValues(q, [results([['64 B', 0.02, 1]]), results([['64 B', 0.25, 1]])]);
    expect(rightOption(q, values)).toBe('B');
    expect(rightOption(q, optionValues(q, [results([]), results([])]))).toBeNull();
  });
});
