// Playback controls: first, back, play/pause, forward, last, speed and a step slider.
import type React from 'react';
import { MAX_SPEED, MIN_SPEED } from './player';
import type { Player } from './usePlayer';

type IconName = 'first' | 'back' | 'play' | 'pause' | 'forward' | 'last';

/** Playback icons drawn in SVG (no dependence on the fonts' symbol coverage). */
function Icon({ name }: { name: IconName }) {
  const shapes: Record<IconName, React.ReactNode> = {
    first: (
      <>
        <rect x={3} y={3} width={2.5} height={10} />
        <polygon points="13,3 13,13 6,8" />
      </>
    ),
    back: <polygon points="12,3 12,13 4,8" />,
    play: <polygon points="4,2.5 4,13.5 13,8" />,
    pause: (
      <>
        <rect x={3.5} y={3} width={3} height={10} />
        <rect x={9.5} y={3} width={3} height={10} />
      </>
    ),
    forward: <polygon points="4,3 4,13 12,8" />,
    last: (
      <>
        <polygon points="3,3 3,13 10,8" />
        <rect x={10.5} y={3} width={2.5} height={10} />
      </>
    ),
  };
  return (
    <svg className="anim-icon" viewBox="0 0 16 16" width={16} height={16} aria-hidden="true" focusable="false" fill="currentColor">
      {shapes[name]}
    </svg>
  );
}

interface Props {
  player: Player;
  total: number;
}

export function Controls({ player, total }: Props) {
  const { state, speed } = player;
  const atFirst = state.step <= 0;
  const atLast = state.step >= total - 1;
  return (
    <div className="anim-controls" role="group" aria-label="Playback">
      <div className="anim-buttons">
        <button type="button" onClick={player.first} disabled={atFirst} aria-label="First decision" title="First decision (Home)">
          <Icon name="first" />
        </button>
        <button type="button" onClick={player.back} disabled={atFirst} aria-label="Step back" title="Step back (Left arrow)">
          <Icon name="back" />
        </button>
        <button
          type="button"
          className="primary anim-play"
          onClick={player.toggle}
          aria-label={state.playing ? 'Pause' : 'Play'}
          title={state.playing ? 'Pause (Space)' : 'Play (Space)'}
        >
          <Icon name={state.playing ? 'pause' : 'play'} />
          {state.playing ? 'Pause' : 'Play'}
        </button>
        <button type="button" onClick={player.forward} disabled={atLast} aria-label="Step forward" title="Step forward (Right arrow)">
          <Icon name="forward" />
        </button>
        <button type="button" onClick={player.last} disabled={atLast} aria-label="Last decision" title="Last decision (End)">
          <Icon name="last" />
        </button>
      </div>
      <div className="anim-step">
        <span aria-hidden="true">
          Step <output data-testid="anim-step">{state.step + 1}</output> of {total}
        </span>
        <input
          type="range"
          min={1}
          max={Math.max(1, total)}
          step={1}
          value={state.step + 1}
          onChange={(e) => player.goTo(Number(e.target.value) - 1)}
          aria-label="Step"
          aria-valuetext={`step ${state.step + 1} of ${total}`}
        />
      </div>
      <div className="anim-speed">
        <span aria-hidden="true">
          Speed <output>{speed}</output> decisions/s
        </span>
        <input
          type="range"
          min={MIN_SPEED}
          max={MAX_SPEED}
          step={0.5}
          value={speed}
          onChange={(e) => player.setSpeed(Number(e.target.value))}
          aria-label="Speed (decisions per second)"
        />
      </div>
    </div>
  );
}
