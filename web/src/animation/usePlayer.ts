// Drives a PlayerState from requestAnimationFrame while it moves (playing or a single
// step's packet travelling); idle otherwise. Honours prefers-reduced-motion.
import { useCallback, useEffect, useRef, useState } from 'react';
import { DEFAULT_SPEED, at, clampSpeed, isMoving, seek, tick, togglePlay, type PlayerState } from './player';

const REDUCED_QUERY = '(prefers-reduced-motion: reduce)';

/** Whether the user asked for reduced motion (follows changes). */
export function useReducedMotion(): boolean {
  const [reduced, setReduced] = useState(() =>
    typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(REDUCED_QUERY).matches : false,
  );
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const mq = window.matchMedia(REDUCED_QUERY);
    const onChange = () => setReduced(mq.matches);
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, []);
  return reduced;
}

export interface Player {
  state: PlayerState;
  speed: number;
  reducedMotion: boolean;
  setSpeed: (speed: number) => void;
  toggle: () => void;
  pause: () => void;
  goTo: (step: number) => void;
  forward: () => void;
  back: () => void;
  first: () => void;
  last: () => void;
}

/** Playback of `total` decisions (restarts at the first decision when `total` changes identity via `key`). */
export function usePlayer(total: number, key: unknown): Player {
  const reducedMotion = useReducedMotion();
  const [state, setState] = useState<PlayerState>(() => at(0, total));
  const [speed, setSpeedState] = useState(DEFAULT_SPEED);
  const [shownKey, setShownKey] = useState(key);
  if (shownKey !== key) {
    // A new trace: start again at its first decision (state adjusted during render).
    setShownKey(key);
    setState(at(0, total));
  }

  const moving = isMoving(state);
  const speedRef = useRef(speed);
  const carry = useRef(0);
  useEffect(() => {
    speedRef.current = speed;
  }, [speed]);

  useEffect(() => {
    if (!moving) return;
    let frame = 0;
    let previous: number | null = null;
    const onFrame = (now: number) => {
      const dt = previous === null ? 0 : now - previous;
      previous = now;
      setState((s) => {
        const next = tick(s, dt, speedRef.current, total, reducedMotion, carry.current);
        carry.current = next.carry;
        return next.state;
      });
      frame = requestAnimationFrame(onFrame);
    };
    frame = requestAnimationFrame(onFrame);
    return () => cancelAnimationFrame(frame);
  }, [moving, total, reducedMotion]);

  const goTo = useCallback(
    (step: number) => {
      carry.current = 0;
      setState((s) => seek(s, step, total, reducedMotion));
    },
    [total, reducedMotion],
  );
  const toggle = useCallback(() => {
    carry.current = 0;
    setState((s) => togglePlay(s, total, reducedMotion));
  }, [total, reducedMotion]);
  const pause = useCallback(() => setState((s) => (s.playing ? togglePlay(s, total, reducedMotion) : s)), [total, reducedMotion]);
  const forward = useCallback(() => {
    carry.current = 0;
    setState((s) => seek(s, s.step + 1, total, reducedMotion));
  }, [total, reducedMotion]);
  const back = useCallback(() => {
    carry.current = 0;
    setState((s) => seek(s, s.step - 1, total, reducedMotion));
  }, [total, reducedMotion]);
  const first = useCallback(() => goTo(0), [goTo]);
  const last = useCallback(() => goTo(total - 1), [goTo, total]);
  const setSpeed = useCallback((v: number) => setSpeedState(clampSpeed(v)), []);

  return { state, speed, reducedMotion, setSpeed, toggle, pause, goTo, forward, back, first, last };
}
