import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeTrace, encodeTrace, parseStudyHash, studyHash, defaultParams } from './route';

const R2 = { loads: [0.76, 1], seeds: 10 };
const parseR2Hash = (h: string) => parseStudyHash(h, R2);
const r2Hash = (p: Parameters<typeof studyHash>[1], v?: Parameters<typeof studyHash>[2]) => studyHash('view=r2', p, v);
import { readTraceCheck, traceErrorText, traceFitsLink, TRACE_LINK_MAX_CHARS, videoClass, withVideoTrace } from './videoTrace';

const preset = readFileSync(join(process.cwd(), 'public/presets/r2-multimedia-dtable.json'), 'utf8');
const sample = readFileSync(join(process.cwd(), 'public/traces/sample-video.txt'), 'utf8');

describe('video source: trace glue', () => {
  it('reads the engine’s verdict: a summary, or the line and the rule', () => {
    const summary = { frames: 3, total_bytes: 6000, mean_bytes: 2000, min_bytes: 1000, max_bytes: 3000, mean_rate_bps: 400000 };
    const ok = readTraceCheck({ status: 'done', check: { summary, error: null } });
    expect(ok).toEqual({ ok: true, summary });
    const bad = readTraceCheck({ status: 'done', check: { summary: null, error: { line: 3, message: '"12x" is not a frame size' } } });
    expect(bad).toEqual({ ok: false, line: 3, message: '"12x" is not a frame size' });
    if (bad.ok) throw new Error('unreachable');
    expect(traceErrorText(bad)).toBe('Line 3: "12x" is not a frame size.');
    expect(traceErrorText({ ok: false, line: null, message: 'the trace holds no frame sizes' })).toBe('The trace holds no frame sizes.');
    expect(readTraceCheck({ status: 'crashed', message: 'boom' })).toEqual({ ok: false, line: null, message: 'the engine could not check the trace (The engine failed: boom)' });
  });

  it('replaces the preset’s synthetic video class with the trace at the same rate, interval and MTU', () => {
    const vi = videoClass(preset);
    expect(vi).toEqual({ index: 2, name: 'VI', rateBps: 3_000_000, frameIntervalUs: 40_000, mtuBytes: 2048, load: 0.453 });
    const out = JSON.parse(withVideoTrace(preset, '100\n200\n')) as { model: { classes: { name: string; traffic: { load: number; generator: unknown } }[] } };
    const before = JSON.parse(preset) as typeof out;
    const classes = out.model.classes;
    expect(classes[2]!.traffic.generator).toEqual({ kind: 'video_trace', trace: '100\n200\n', frame_interval_us: 40_000, rate_bps: 3_000_000, mtu_bytes: 2048 });
    // The load (so the number of connections) and every other class are untouched.
    expect(classes[2]!.traffic.load).toBe(0.453);
    classes.forEach((c, i) => {
      if (i !== 2) expect(c).toEqual(before.model.classes[i]);
    });
    expect(() => withVideoTrace(withVideoTrace(preset, '1\n'), '1\n')).toThrow(/no synthetic video class/);
  });

  it('the trace travels in the link up to 32 KiB of text, compressed', () => {
    expect(sample.length).toBeLessThan(TRACE_LINK_MAX_CHARS);
    expect(traceFitsLink(sample)).toBe(true);
    expect(traceFitsLink('1\n'.repeat(TRACE_LINK_MAX_CHARS / 2 + 1))).toBe(false);
    const payload = encodeTrace(sample);
    expect(payload.length).toBeLessThan(sample.length);
    expect(decodeTrace(payload)).toBe(sample);
    const params = defaultParams(R2);
    const hash = r2Hash(params, { source: 'trace', tracePayload: payload });
    expect(hash).toMatch(/&video=trace&trace=[\w-]+$/);
    expect(parseR2Hash(hash)).toEqual({ params, problems: [], video: { source: 'trace', trace: sample } });
    // Too big for the link: the source is kept, the text is not.
    expect(parseR2Hash(r2Hash(params, { source: 'trace', tracePayload: null }))).toEqual({ params, problems: [], video: { source: 'trace', trace: null } });
    // Synthetic: nothing is added.
    expect(r2Hash(params, { source: 'synthetic', tracePayload: payload })).toBe(r2Hash(params));
    const damaged = parseR2Hash(`${r2Hash(params)}&video=trace&trace=AAAA`);
    expect(damaged.video).toEqual({ source: 'trace', trace: null });
    expect(damaged.problems[0]).toMatch(/^trace: the link’s frame-size trace is damaged/);
    expect(parseR2Hash('view=r2&video=film').problems[0]).toMatch(/^video: “film” is not a video source/);
  });
});
