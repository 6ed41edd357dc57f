// The animation's place in the address: `&view=animate` after the share link's
// `v=1&s=...` (a hash of only `view=animate` opens it on the default scenario).

/** The hash parameter naming the view. */
export const VIEW_PARAM = 'view';
/** Its value for the animation. */
export const ANIMATE = 'animate';

/** Whether a location hash (with or without `#`) asks for the animation. */
export function isAnimateHash(hash: string): boolean {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  return new URLSearchParams(text).get(VIEW_PARAM) === ANIMATE;
}

/** `hash` (without `#`) with the view parameter set when `animate`, removed otherwise. */
export function withAnimateView(hash: string, animate: boolean): string {
  const params = new URLSearchParams(hash);
  if (params.has(VIEW_PARAM)) {
    params.delete(VIEW_PARAM);
    hash = params.toString();
  }
  if (!animate) return hash;
  return hash === '' ? `${VIEW_PARAM}=${ANIMATE}` : `${hash}&${VIEW_PARAM}=${ANIMATE}`;
}
