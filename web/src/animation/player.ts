// Playback of a trace, as pure state transitions (the hook in usePlayer.ts drives them
// from requestAnimationFrame). The trace is computed once: playing, stepping and seeking
// only move an index.

/** Playback state: which decision is shown and how far its packet has travelled. */
export interface PlayerState {
  /** 0-based decision shown. */
  step: number;
  /** Progress of the decision's packet from its queue to the end of the link, 0..1. */
  phase: number;
  /** Advancing on its own at `speed` decisions per second. */
  playing: boolean;
  /** A single step's packet is moving (after a manual step), at {@link TWEEN_MS}. */
  tweening: boolean;
}

/** Duration of the packet's move after a manual step, in ms. */
export const TWEEN_MS = 350;
/** Speed range, in decisions per second. */
export const MIN_SPEED = 0.5;
export const MAX_SPEED = 20;
export const DEFAULT_SPEED = 2;

/** The state at decision `step` (clamped to the trace) with its packet already sent. */
export function at(step: number, total: number): PlayerState {
  return { step: clampStep(step, total), phase: 1, playing: false, tweening: false };
}

/** `step` within 0..total-1 (0 for an empty trace). */
export function clampStep(step: number, total: number): number {
  if (total <= 0 || !Number.isFinite(step)) return 0;
  return Math.min(total - 1, Math.max(0, Math.trunc(step)));
}

/** `speed` within the allowed range. */
export function clampSpeed(speed: number): number {
  if (!Number.isFinite(speed)) return DEFAULT_SPEED;
  return Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed));
}

/** Shows decision `step`; its packet moves unless motion is reduced. Stops playing. */
export function seek(state: PlayerState, step: number, total: number, reducedMotion: boolean): PlayerState {
  const target = clampStep(step, total);
  if (reducedMotion || total === 0) return at(target, total);
  // Going back shows the decision as it ended; going forward shows its packet leaving.
  if (target <= state.step) return at(target, total);
  return { step: target, phase: 0, playing: false, tweening: true };
}

/**
 * Starts or stops playing. Playing after a finished decision starts with the next one;
 * from the end of the last decision it starts again from the first.
 */
export function togglePlay(state: PlayerState, total: number, reducedMotion: boolean): PlayerState {
  if (total === 0) return state;
  if (state.playing) return { ...state, playing: false, tweening: false, phase: 1 };
  if (state.step >= total - 1 && state.phase >= 1) {
    return { step: 0, phase: reducedMotion ? 1 : 0, playing: true, tweening: false };
  }
  // A finished decision: playing starts with the next one's packet leaving.
  if (state.phase >= 1) return { step: state.step + 1, phase: reducedMotion ? 1 : 0, playing: true, tweening: false };
  return { ...state, playing: true, tweening: false };
}

/**
 * The state `dtMs` later. Playing: the phase grows by `speed` decisions per second and
 * each whole decision moves to the next one; it stops at the end of the last decision.
 * With reduced motion the packet does not travel: the decision changes at the same rate
 * but the phase stays at 1 (the fraction of the next decision is kept in `carry`).
 * Tweening: the phase grows to 1 in {@link TWEEN_MS}.
 */
export function tick(
  state: PlayerState,
  dtMs: number,
  speed: number,
  total: number,
  reducedMotion: boolean,
  carry = 0,
): { state: PlayerState; carry: number } {
  const dt = Math.max(0, Math.min(dtMs, 250)); // a background tab must not jump far ahead
  if (total === 0) return { state: { ...state, playing: false, tweening: false }, carry: 0 };
  if (state.playing) {
    const last = total - 1;
    if (reducedMotion) {
      let acc = carry + (clampSpeed(speed) * dt) / 1000;
      let step = state.step;
      while (acc >= 1 && step < last) {
        acc -= 1;
        step += 1;
      }
      if (step >= last && acc >= 1) return { state: { step: last, phase: 1, playing: false, tweening: false }, carry: 0 };
      return { state: { step, phase: 1, playing: true, tweening: false }, carry: acc };
    }
    let phase = state.phase + (clampSpeed(speed) * dt) / 1000;
    let step = state.step;
    while (phase >= 1 && step < last) {
      phase -= 1;
      step += 1;
    }
    if (step >= last && phase >= 1) return { state: { step: last, phase: 1, playing: false, tweening: false }, carry: 0 };
    return { state: { step, phase, playing: true, tweening: false }, carry: 0 };
  }
  if (state.tweening) {
    const phase = state.phase + dt / TWEEN_MS;
    if (phase >= 1) return { state: { ...state, phase: 1, tweening: false }, carry: 0 };
    return { state: { ...state, phase }, carry: 0 };
  }
  return { state, carry };
}

/** Whether the state needs animation frames. */
export function isMoving(state: PlayerState): boolean {
  return state.playing || state.tweening;
}
