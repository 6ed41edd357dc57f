import { describe, expect, it } from 'vitest';
import { MAX_SPEED, MIN_SPEED, TWEEN_MS, at, clampSpeed, clampStep, isMoving, seek, tick, togglePlay } from './player';

describe('player', () => {
  it('clamps steps and speeds', () => {
    expect(clampStep(-3, 10)).toBe(0);
    expect(clampStep(12, 10)).toBe(9);
    expect(clampStep(4.7, 10)).toBe(4);
    expect(clampStep(5, 0)).toBe(0);
    expect(clampSpeed(0)).toBe(MIN_SPEED);
    expect(clampSpeed(100)).toBe(MAX_SPEED);
    expect(clampSpeed(Number.NaN)).toBe(2);
  });

  it('stepping forward moves the packet; back and reduced motion show the decision ended', () => {
    const s = at(3, 10);
    expect(seek(s, 4, 10, false)).toEqual({ step: 4, phase: 0, playing: false, tweening: true });
    expect(seek(s, 2, 10, false)).toEqual({ step: 2, phase: 1, playing: false, tweening: false });
    expect(seek(s, 4, 10, true)).toEqual({ step: 4, phase: 1, playing: false, tweening: false });
    expect(seek(s, 99, 10, true).step).toBe(9);
  });

  it('a tween reaches the end of the link in TWEEN_MS, then stops needing frames', () => {
    let s = seek(at(0, 5), 1, 5, false);
    let r = tick(s, TWEEN_MS / 2, 2, 5, false);
    expect(r.state.phase).toBeCloseTo(0.5);
    expect(isMoving(r.state)).toBe(true);
    r = tick(r.state, TWEEN_MS, 2, 5, false);
    s = r.state;
    expect(s).toEqual({ step: 1, phase: 1, playing: false, tweening: false });
    expect(isMoving(s)).toBe(false);
    expect(tick(s, 100, 2, 5, false).state).toBe(s);
  });

  it('plays at the speed in decisions per second and stops at the end of the last decision', () => {
    let s = togglePlay(at(0, 3), 3, false);
    // Decision 0 had ended: playing starts with decision 1's packet leaving.
    expect(s).toEqual({ step: 1, phase: 0, playing: true, tweening: false });
    // 4 decisions/s for 250 ms: one decision later.
    let r = tick(s, 250, 4, 3, false);
    expect(r.state.step).toBe(2);
    expect(r.state.phase).toBeCloseTo(0);
    r = tick(r.state, 125, 4, 3, false);
    expect(r.state).toMatchObject({ step: 2, playing: true });
    expect(r.state.phase).toBeCloseTo(0.5);
    r = tick(r.state, 250, 4, 3, false);
    expect(r.state).toEqual({ step: 2, phase: 1, playing: false, tweening: false });
    // Paused half-way: playing goes on from there.
    expect(togglePlay({ step: 1, phase: 0.5, playing: false, tweening: false }, 3, false)).toEqual({
      step: 1,
      phase: 0.5,
      playing: true,
      tweening: false,
    });
    // Play again from the end starts at the first decision.
    s = togglePlay(r.state, 3, false);
    expect(s).toEqual({ step: 0, phase: 0, playing: true, tweening: false });
    expect(togglePlay(s, 3, false)).toEqual({ step: 0, phase: 1, playing: false, tweening: false });
  });

  it('a long frame (background tab) advances at most 250 ms', () => {
    const s = togglePlay(at(0, 100), 100, false);
    expect(s.step).toBe(1);
    expect(tick(s, 60_000, 20, 100, false).state.step).toBe(6);
  });

  it('with reduced motion the packet does not travel but decisions still change at the speed', () => {
    const s = togglePlay(at(0, 10), 10, true);
    expect(s).toEqual({ step: 1, phase: 1, playing: true, tweening: false });
    let r = tick(s, 200, 2, 10, true);
    expect(r.state).toEqual({ step: 1, phase: 1, playing: true, tweening: false });
    r = tick(r.state, 200, 2, 10, true, r.carry);
    expect(r.state).toEqual({ step: 1, phase: 1, playing: true, tweening: false });
    r = tick(r.state, 200, 2, 10, true, r.carry);
    expect(r.state.step).toBe(2);
    expect(r.state.phase).toBe(1);
  });

  it('does nothing with an empty trace', () => {
    expect(togglePlay(at(0, 0), 0, false).playing).toBe(false);
    expect(tick({ step: 0, phase: 0, playing: true, tweening: false }, 10, 2, 0, false).state.playing).toBe(false);
  });
});
