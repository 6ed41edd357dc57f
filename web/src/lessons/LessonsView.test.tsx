import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunOutcome } from '../engine/client';
import { LessonsView } from './LessonsView';

afterEach(cleanup);

const readFile = (url: string) => Promise.resolve(readFileSync(join(process.cwd(), 'public', url), 'utf8'));

/** A fake engine: throughput 0.1 × the class's position, except the 2048 B class at 0.9. */
function engine() {
  const runs: string[] = [];
  return {
    runs,
    engine: {
      run: (json: string) => {
        runs.push(json);
        const s = JSON.parse(json) as { duration_us: number; model: { classes: { name: string }[] } };
        const classes = s.model.classes.map((c, i) => ({ name: c.name, throughput: c.name === '2048 B' ? 0.9 : 0.1 * i, latency_ns: { mean: 1, p99: 2 } }));
        return Promise.resolve<RunOutcome>({ status: 'done', resultsJson: JSON.stringify({ seed: 1, classes }), events: 1, elapsedMs: 1 });
      },
      atLoad: (json: string) => Promise.resolve({ status: 'done' as const, scenarioJson: json }),
    },
  };
}

describe('LessonsView', () => {
  it('lists the lessons', async () => {
    render(<LessonsView engine={engine().engine} hash="#view=lessons" readFile={readFile} />);
    const links = await screen.findAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['R1: why tables need deficits', '#view=lessons&lesson=r1-deficits&step=1'],
      ['R2: latency and bandwidth decoupled', '#view=lessons&lesson=r2-decoupling&step=1'],
      ['R3: hierarchical vs flat switches', '#view=lessons&lesson=r3-switches&step=1'],
      ['R4: do we need 16 VCs?', '#view=lessons&lesson=r4-two-vcs&step=1'],
      ['R5: constant-time scheduling on a network processor', '#view=lessons&lesson=r5-dwcs&step=1'],
      ['R6: fairness over two resources', '#view=lessons&lesson=r6-pcfq&step=1'],
    ]);
  });

  it('shows a step and checks the answer against a run of the question’s scenario', async () => {
    const fake = engine();
    render(<LessonsView engine={fake.engine} hash="#view=lessons&lesson=r1-deficits&step=1" readFile={readFile} />);
    expect((await screen.findByRole('heading', { level: 3 })).textContent).toBe('Step 1 of 4: One packet per entry');
    expect(screen.getByRole('link', { name: 'Open the AS basic table (R1) in the link lab' }).getAttribute('href')).toBe('#preset=r1-as-basic');
    const check = screen.getByRole('button', { name: 'Check against a run' });
    expect(check).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('radio', { name: '64 B' }));
    fireEvent.click(check);
    const verdict = await screen.findByTestId('lesson-verdict');
    expect(verdict.textContent).toMatch(/^Not this time: in the run \(.* s\), 2048 B has the highest throughput\./);
    // The run is the preset, shortened as the lesson says.
    expect((JSON.parse(fake.runs[0]!) as { duration_us: number }).duration_us).toBe(20000);
    fireEvent.click(screen.getByRole('radio', { name: '2048 B' }));
    fireEvent.click(check);
    await waitFor(() => expect(screen.getByTestId('lesson-verdict').textContent).toMatch(/^Right:/));
    expect(screen.getByRole('link', { name: 'Next step →' }).getAttribute('href')).toBe('#view=lessons&lesson=r1-deficits&step=2');
  });

  it('names a lesson that does not exist', async () => {
    render(<LessonsView engine={engine().engine} hash="#view=lessons&lesson=nope" readFile={() => Promise.reject(new Error('HTTP 404'))} />);
    expect((await screen.findByRole('alert')).textContent).toBe('There is no lesson “nope” (lessons/nope.json: HTTP 404).');
  });
});
