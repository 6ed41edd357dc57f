import { describe, expect, it } from 'vitest';
import { VIEWS, viewOf } from './views';

describe('the view registry', () => {
  it('maps addresses to views, old links included', () => {
    expect(viewOf('#view=r2&loads=0.8,1&seeds=2').id).toBe('r2');
    expect(viewOf('#view=r3&loads=0.7,1&seeds=2&seed=&us=100&panels=0').id).toBe('r3');
    expect(viewOf('#view=r4&loads=1&seeds=1').id).toBe('r4');
    expect(viewOf('#view=r5&loads=0.8,1&seeds=2').id).toBe('r5');
    expect(viewOf('#view=study&id=r2').id).toBe('study');
    expect(viewOf('#view=design').id).toBe('design');
    expect(viewOf('#view=lessons&lesson=r1-deficits').id).toBe('lessons');
    expect(viewOf('#preset=r1-dtable&view=animate').id).toBe('lab');
    expect(viewOf('').id).toBe('lab');
  });

  it('ids are unique and every listed view has a title and a tagline', () => {
    expect(new Set(VIEWS.map((v) => v.id)).size).toBe(VIEWS.length);
    for (const v of VIEWS.filter((x) => x.nav)) expect(v.title && v.tagline).toBeTruthy();
  });
});
