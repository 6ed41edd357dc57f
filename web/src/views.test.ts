import { describe, expect, it } from 'vitest';
import type { Engine } from './engine/client';
import { VIEWS, viewOf } from './views';

const full = {
  atLoad: () => 0,
  meanCi90: () => 0,
  design: () => 0,
  evaluate: () => 0,
  opensmExport: () => 0,
  opensmParse: () => 0,
  designExport: () => 0,
  opafmImport: () => 0,
} as unknown as Engine;

describe('the view registry', () => {
  it('maps addresses to views, old links included', () => {
    expect(viewOf('#view=r2&loads=0.8,1&seeds=2', full).id).toBe('r2');
    expect(viewOf('#view=r5&loads=0.8,1&seeds=2', full).id).toBe('r5');
    expect(viewOf('#view=study&id=r2', full).id).toBe('study');
    expect(viewOf('#view=design', full).id).toBe('design');
    expect(viewOf('#view=lessons&lesson=r1-deficits', full).id).toBe('lessons');
    expect(viewOf('#preset=r1-dtable&view=animate', full).id).toBe('lab');
    expect(viewOf('', full).id).toBe('lab');
  });

  it('a view whose engine needs are missing is not opened', () => {
    expect(viewOf('#view=design', {} as Engine).id).toBe('lab');
    expect(viewOf('#view=r2', {} as Engine).id).toBe('lab');
  });

  it('ids are unique and every listed view has a title and a tagline', () => {
    expect(new Set(VIEWS.map((v) => v.id)).size).toBe(VIEWS.length);
    for (const v of VIEWS.filter((x) => x.nav)) expect(v.title && v.tagline).toBeTruthy();
  });
});
