import { describe, expect, it } from 'vitest';
import { LinkError, decodeHash, encodeHash } from '../share/link';
import { defaultScenario } from '../state/scenario';
import { isAnimateHash, withAnimateView } from './route';

describe('the animation in the address', () => {
  const share = encodeHash(defaultScenario());

  it('adds and removes view=animate after the share link', () => {
    const open = withAnimateView(share, true);
    expect(open).toBe(`${share}&view=animate`);
    expect(isAnimateHash(`#${open}`)).toBe(true);
    expect(withAnimateView(open, false)).toBe(share);
    expect(withAnimateView(open, true)).toBe(open);
    expect(isAnimateHash(`#${share}`)).toBe(false);
    expect(withAnimateView('', true)).toBe('view=animate');
    expect(isAnimateHash('#view=other')).toBe(false);
  });

  it('keeps share links readable: the scenario is decoded whatever the view', () => {
    expect(JSON.parse(decodeHash(`#${share}&view=animate`) ?? 'null')).toEqual(defaultScenario());
    // A hash with only the view carries no scenario (the default is shown).
    expect(decodeHash('#view=animate')).toBeNull();
    // Anything else without a version is still refused.
    expect(() => decodeHash('#view=animate&x=1')).toThrow(LinkError);
  });
});
