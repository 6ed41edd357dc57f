import { describe, expect, it } from 'vitest';
import { encodeJsonPayload } from '../share/link';
import { multimediaForm } from './model';
import { designFromHash, designHash, isDesignHash } from './route';

describe('the designer in the address', () => {
  const doc = { version: 1, form: multimediaForm(), table: [{ class: 'NC', weight: 3 }, { class: 'VI', weight: 64 }] };

  it('round-trips the form as typed and the edited table exactly', () => {
    const f = multimediaForm();
    f.w = '';
    f.classes[0]!.share = '0.0937'; // a draft survives as typed
    const d = { ...doc, form: f };
    const hash = designHash(d);
    expect(hash).toMatch(/^view=design&v=1&d=[A-Za-z0-9_-]+$/);
    expect(isDesignHash(`#${hash}`)).toBe(true);
    expect(designFromHash(`#${hash}`)).toEqual({ ok: true, doc: d });
  });

  it('opens on the default without a payload, and refuses damaged or invalid ones in words', () => {
    expect(designFromHash('#view=design')).toEqual({ ok: true, doc: null });
    expect(isDesignHash('#v=1&s=abc')).toBe(false);
    expect(designFromHash('#view=design&v=2&d=abc')).toEqual({ ok: false, lines: [expect.stringContaining('link version "2"')] });
    expect(designFromHash('#view=design&v=1&d=@@')).toEqual({ ok: false, lines: [expect.stringContaining('The link is damaged')] });
    const bad = encodeJsonPayload({ ...doc, table: [{ class: 'NC', weight: -1 }] });
    expect(designFromHash(`#view=design&v=1&d=${bad}`)).toEqual({
      ok: false,
      lines: ['The design in the link is invalid: table[0]: must be {"class": name, "weight": whole number or null}.'],
    });
    const noTech = encodeJsonPayload({ ...doc, form: { ...doc.form, technology: 'atm' } });
    const out = designFromHash(`#view=design&v=1&d=${noTech}`);
    expect(out.ok).toBe(false);
  });
});
