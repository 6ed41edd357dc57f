// The port at one decision: per-class queues (packets as bars proportional to their size,
// head on the right), free downstream credits as gauges, and the decision's packet moving
// from its queue onto the link (`phase` 0..1).
import { layoutQueue, type StepView } from './model';

interface Props {
  view: StepView;
  /** Progress of the packet from its queue head to the end of the link, 0..1. */
  phase: number;
  /** Bytes of the largest packet (sets the bar scale). */
  largest: number;
  /** Width to draw at, in px (the figure is drawn 1:1 so text keeps its size). */
  width?: number;
}

/** Width used before the container is measured. */
export const DEFAULT_PORT_WIDTH = 660;
const MIN_WIDTH = 320;
const MAX_WIDTH = 900;
const LANE = 48;
const TOP = 22;
const NAME_W = 96;
const QUEUE_LEFT = NAME_W + 8;
const BAR_H = 20;
/** Width of the credits text right of each gauge. */
const GAUGE_TEXT_W = 92;
const GAUGE_H = 7;
/** The lane holds this many largest packets. */
const LANE_PACKETS = 6;

function lerp(a: number, b: number, t: number): number {
  return a + (b - a) * t;
}

export function PortFigure({ view, phase, largest, width = DEFAULT_PORT_WIDTH }: Props) {
  const WIDTH = Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width)));
  const linkW = Math.min(220, Math.max(70, WIDTH * 0.22));
  const LINK_END = WIDTH - 6;
  const MUX_X = LINK_END - linkW - 10;
  const HEAD_X = MUX_X - 16;
  const lanes = view.classes.length;
  const height = TOP + lanes * LANE + 10;
  const pxPerByte = (HEAD_X - QUEUE_LEFT) / (LANE_PACKETS * largest);
  const linkY = TOP + (lanes * LANE) / 2 - BAR_H / 2;
  const sender = view.classes[view.packet.class];
  const laneY = (c: number) => TOP + c * LANE + 4;

  // The moving packet: to the multiplexer in the first quarter, then along the link.
  const pw = Math.max(3, Math.min(view.packet.bytes * pxPerByte, LINK_END - MUX_X - 20));
  const t = Math.min(1, Math.max(0, phase));
  let px: number;
  let py: number;
  if (t < 0.25) {
    const u = t / 0.25;
    px = lerp(HEAD_X - pw, MUX_X, u);
    py = lerp(laneY(view.packet.class), linkY, u);
  } else {
    const u = (t - 0.25) / 0.75;
    px = lerp(MUX_X, LINK_END - pw, u);
    py = linkY;
  }

  return (
    <svg
      className="anim-port"
      width={WIDTH}
      height={height}
      viewBox={`0 0 ${WIDTH} ${height}`}
      role="img"
      aria-label={`Queues and credits before the decision; ${sender?.name ?? 'a class'} sends ${view.packet.bytes} B on the link`}
    >
      <text x={QUEUE_LEFT} y={14} className="anim-axis">
        queue (head on the right)
      </text>
      <text x={LINK_END} y={14} className="anim-axis" textAnchor="end">
        link →
      </text>
      {/* Multiplexer and link. */}
      <polygon
        className="anim-mux"
        points={`${HEAD_X + 4},${TOP} ${MUX_X + 10},${linkY - 6} ${MUX_X + 10},${linkY + BAR_H + 6} ${HEAD_X + 4},${TOP + lanes * LANE - 6}`}
      />
      <rect className="anim-link" x={MUX_X + 10} y={linkY - 4} width={LINK_END - MUX_X - 10} height={BAR_H + 8} rx={3} />
      {view.classes.map((c) => {
        const y = laneY(c.index);
        const { bars, hidden } = layoutQueue(c.waiting, c.unlisted, HEAD_X, QUEUE_LEFT + 22, pxPerByte);
        const free = c.bufferCredits > 0 ? Math.min(1, c.freeCredits / c.bufferCredits) : 0;
        const gaugeW = Math.max(20, HEAD_X - QUEUE_LEFT - GAUGE_TEXT_W);
        return (
          <g key={c.index} className={c.sends ? 'anim-lane sends' : 'anim-lane'} data-testid={`anim-lane-${c.index}`}>
            <rect x={2} y={y} width={10} height={BAR_H} fill={c.color} rx={2} />
            <text x={16} y={y + 14} className={c.sends ? 'anim-lane-name sends' : 'anim-lane-name'}>
              {c.name}
            </text>
            <text x={16} y={y + 32} className="anim-lane-meta">
              {c.length} pkt{c.length === 1 ? '' : 's'}
            </text>
            <line className="anim-lane-floor" x1={QUEUE_LEFT} x2={HEAD_X} y1={y + BAR_H + 0.5} y2={y + BAR_H + 0.5} />
            {bars.map((b, i) => (
              <rect key={i} className="anim-packet" x={b.x} y={y} width={b.width} height={BAR_H} fill={c.color}>
                <title>{`${c.name}: ${b.bytes} B`}</title>
              </rect>
            ))}
            {hidden > 0 ? (
              <text x={QUEUE_LEFT} y={y + 14} className="anim-hidden">
                +{hidden}
              </text>
            ) : null}
            {/* Free downstream credits. */}
            <rect className="anim-gauge-bg" x={QUEUE_LEFT} y={y + BAR_H + 4} width={gaugeW} height={GAUGE_H} rx={2} />
            <rect
              className="anim-gauge"
              x={QUEUE_LEFT}
              y={y + BAR_H + 4}
              width={gaugeW * free}
              height={GAUGE_H}
              rx={2}
              fill={c.color}
              data-testid={`anim-gauge-${c.index}`}
              data-free={c.freeCredits}
            >
              <title>{`${c.name}: ${c.freeCredits} of ${c.bufferCredits} credits free`}</title>
            </rect>
            <text x={HEAD_X} y={y + BAR_H + 11} className="anim-gauge-text" textAnchor="end">
              {c.freeCredits}/{c.bufferCredits} credits
            </text>
          </g>
        );
      })}
      {sender ? (
        <g className="anim-leaving" data-testid="anim-leaving" data-class={view.packet.class} data-phase={t.toFixed(2)}>
          <rect x={px} y={py} width={pw} height={BAR_H} fill={sender.color} stroke="#1c2230" strokeWidth={1.5} />
          {t >= 0.25 ? (
            <text x={Math.max(MUX_X + 14, px - 4)} y={py + BAR_H + 14} className="anim-leaving-text">
              {view.packet.bytes} B
            </text>
          ) : null}
        </g>
      ) : null}
    </svg>
  );
}
