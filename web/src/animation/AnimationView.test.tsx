import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TraceOutcome } from '../engine/client';
import type { Trace } from '../generated';
import { defaultScenario } from '../state/scenario';
import { AnimationView, settingsProblems, type TraceEngine } from './AnimationView';
import { drrTrace, dtableTrace, ibaTrace } from './fixtures';

afterEach(cleanup);

function fakeEngine(answer: (n: number, from: number) => TraceOutcome): TraceEngine & { calls: [number, number][] } {
  const calls: [number, number][] = [];
  return {
    calls,
    trace: async (_json: string, n: number, from: number) => {
      calls.push([n, from]);
      return answer(n, from);
    },
  };
}

const done = (t: Trace): TraceOutcome => ({ status: 'done', traceJson: JSON.stringify(t) });

async function open(trace: Trace) {
  const engine = fakeEngine(() => done(trace));
  render(<AnimationView engine={engine} scenario={defaultScenario()} onClose={() => {}} />);
  await screen.findByTestId('anim-player');
  return engine;
}

const player = () => screen.getByTestId('anim-player');

describe('AnimationView', () => {
  it('asks the engine for 200 decisions from the warm-up, then shows the first decision', async () => {
    const engine = await open(dtableTrace());
    expect(engine.calls).toEqual([[200, defaultScenario().warmup_us]]);
    expect(player().getAttribute('data-step')).toBe('0');
    expect(screen.getByTestId('anim-text').textContent).toBe('step 1: entry 0 (new, weight 4) -> class A sends 128 B (2 credits); accumulated 0 -> 2');
    expect(screen.getByTestId('anim-pointer-main').getAttribute('data-entry')).toBe('0');
    expect(screen.getByTestId('anim-counter-accumulated').getAttribute('data-value')).toBe('2');
    expect(screen.getByTestId('anim-live').textContent).toContain('step 1:');
    expect(screen.getByRole('button', { name: 'First decision' })).toHaveProperty('disabled', true);
  });

  it('steps with the buttons and the keyboard; counters follow the trace', async () => {
    const trace = dtableTrace();
    await open(trace);
    fireEvent.click(screen.getByRole('button', { name: 'Step forward' }));
    expect(player().getAttribute('data-step')).toBe('1');
    expect(screen.getByTestId('anim-pointer-main').getAttribute('data-entry')).toBe('1');
    expect(screen.getByTestId('anim-selected').getAttribute('data-class')).toBe('1');
    expect(screen.getByTestId('anim-deficit-0').getAttribute('data-value')).toBe('2');
    fireEvent.keyDown(player(), { key: 'End' });
    expect(player().getAttribute('data-step')).toBe('2');
    expect(screen.getByRole('button', { name: 'Step forward' })).toHaveProperty('disabled', true);
    fireEvent.keyDown(player(), { key: 'ArrowLeft' });
    expect(player().getAttribute('data-step')).toBe('1');
    fireEvent.keyDown(player(), { key: 'Home' });
    expect(player().getAttribute('data-step')).toBe('0');
    fireEvent.keyDown(player(), { key: 'ArrowRight' });
    expect(player().getAttribute('data-step')).toBe('1');
    fireEvent.change(screen.getByRole('slider', { name: 'Step' }), { target: { value: '3' } });
    expect(player().getAttribute('data-step')).toBe('2');
  });

  it('Space plays and pauses; typing in an input is left alone', async () => {
    await open(dtableTrace());
    fireEvent.keyDown(player(), { key: ' ' });
    expect(screen.getByRole('button', { name: 'Pause' })).toBeTruthy();
    expect(screen.getByTestId('anim-live').textContent).toMatch(/^Playing at 2 decisions per second/);
    fireEvent.keyDown(player(), { key: ' ' });
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
    const speed = screen.getByRole('slider', { name: 'Speed (decisions per second)' });
    const before = player().getAttribute('data-step');
    fireEvent.keyDown(speed, { key: 'ArrowRight' });
    expect(player().getAttribute('data-step')).toBe(before);
  });

  it('draws two tables for InfiniBand, the waiting one marked', async () => {
    await open(ibaTrace());
    expect(screen.getByTestId('anim-table-high').textContent).toContain('High-priority table');
    expect(screen.getByTestId('anim-table-low').textContent).toContain('(waiting)');
    expect(screen.getByTestId('anim-counter-high_limit_used').textContent).toContain('128 / 4096 B');
    expect(screen.queryByTestId('anim-pointer-low')).toBeNull();
  });

  it('draws no table for DRR, with deficits in bytes', async () => {
    await open(drrTrace());
    expect(screen.queryByTestId('anim-table-main')).toBeNull();
    expect(screen.getByText('Deficit (B)')).toBeTruthy();
  });

  it('draws a strip for tables of more than 64 entries', async () => {
    const trace = dtableTrace();
    trace.table = Array.from({ length: 128 }, (_, i) => ({ table: 'main' as const, index: i, class: i % 2, weight: 4 }));
    await open(trace);
    expect(screen.getByTestId('anim-table-main').textContent).toContain('128 entries, 64 per row');
    expect(screen.getByTestId('anim-table-main').querySelectorAll('.anim-entry').length).toBe(128);
    expect(screen.getByTestId('anim-pointer-main').getAttribute('data-entry')).toBe('0');
  });

  it("shows the engine's problems and retraces with new settings", async () => {
    const engine = fakeEngine((n) =>
      n === 5 ? done(dtableTrace()) : { status: 'invalid', error: { kind: 'invalid', errors: [{ path: 'duration_us', message: 'too short' }] } },
    );
    render(<AnimationView engine={engine} scenario={defaultScenario()} onClose={() => {}} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('too short');
    fireEvent.change(screen.getByLabelText('Decisions'), { target: { value: '5' } });
    fireEvent.change(screen.getByLabelText('From (µs)'), { target: { value: '7' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Trace decisions' }));
    });
    await waitFor(() => expect(screen.getByTestId('anim-player')).toBeTruthy());
    expect(engine.calls.at(-1)).toEqual([5, 7]);
  });

  it('says so when no decision was made', async () => {
    const trace = dtableTrace();
    trace.decisions = [];
    const engine = fakeEngine(() => done(trace));
    render(<AnimationView engine={engine} scenario={defaultScenario()} onClose={() => {}} />);
    expect((await screen.findByText(/No decision was made/)).textContent).toContain('100000 µs');
  });

  it('checks the settings', () => {
    expect(settingsProblems('200', '100', 1000)).toEqual([]);
    expect(settingsProblems('0', '100', 1000)).toEqual(['Decisions must be a whole number from 1 to 10000.']);
    expect(settingsProblems('10001', '1.5', 1000)).toHaveLength(2);
    expect(settingsProblems('10', '1000', 1000)).toEqual(['From must be before the end of the run (1000 µs).']);
  });
});
