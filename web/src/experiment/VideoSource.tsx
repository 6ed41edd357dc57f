// The "Video source" control of a study with `videoTraceClass`: the presets' synthetic model,
// or an uploaded frame-size trace (file, paste or the sample), checked by the engine; its
// refusal (naming the line) shows under the control.
import type { StudyVideo } from './route';
import { TRACE_LINK_MAX_CHARS, traceErrorText, traceFitsLink, type TraceCheck, type VideoClass } from './videoTrace';

const formatRate = (bps: number) => (bps >= 1e6 ? `${+(bps / 1e6).toFixed(2)} Mb/s` : `${+(bps / 1e3).toFixed(1)} kb/s`);

/**
 * The VI class's source: the presets' synthetic model, or a frame-size trace (file, paste
 * or the sample), checked by the engine; its refusal (naming the line) shows under the control.
 */
export function VideoSource({
  source,
  onSource,
  trace,
  onTrace,
  check,
  vi,
  problem,
  onSample,
  onFileProblem,
  prefix,
  className,
}: {
  /** Prefix of element ids and test ids (the study's id). */
  prefix: string;
  /** The study's video class (named until the preset is read). */
  className: string;
  source: StudyVideo['source'];
  onSource: (s: StudyVideo['source']) => void;
  trace: { text: string; origin: string };
  onTrace: (text: string, origin: string) => void;
  check: TraceCheck | null;
  vi: VideoClass | null;
  problem: string | null;
  onSample: () => void;
  onFileProblem: (p: string | null) => void;
}) {
  const useTrace = source === 'trace';
  const empty = trace.text.trim() === '';
  const error = problem ?? (check && !check.ok ? traceErrorText(check) : null);
  const rate = vi ? formatRate(vi.rateBps) : 'the synthetic model’s rate';
  return (
    <fieldset className="experiment-video" data-testid={`${prefix}-video`}>
      <legend>Video source (class {vi?.name ?? className})</legend>
      <div className="row" role="radiogroup" aria-label="Video source">
        <label>
          <input type="radio" name={`${prefix}-video`} value="synthetic" checked={!useTrace} onChange={() => onSource('synthetic')} /> Synthetic
          model (the presets’ MPEG-4 GOP model)
        </label>
        <label>
          <input type="radio" name={`${prefix}-video`} value="trace" checked={useTrace} onChange={() => onSource('trace')} /> Upload a frame-size
          trace
        </label>
      </div>
      {useTrace ? (
        <div className="experiment-trace">
          <div className="row">
            <label htmlFor={`${prefix}-trace-file`}>Frame-size trace file</label>
            <input
              id={`${prefix}-trace-file`}
              type="file"
              accept=".txt,.trace,.csv,text/plain"
              aria-describedby={error ? `${prefix}-trace-error` : `${prefix}-trace-hint`}
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (!file) return;
                file.text().then(
                  (text) => onTrace(text, file.name),
                  (err: unknown) => onFileProblem(`${file.name} could not be read: ${err instanceof Error ? err.message : String(err)}`),
                );
              }}
            />
            <button type="button" onClick={onSample}>
              Use the sample trace
            </button>
          </div>
          <div className={`field${error ? ' has-error' : ''}`}>
            <label htmlFor={`${prefix}-trace-text`}>Or paste a frame-size trace (one frame size in bytes per line, # comments)</label>
            <textarea
              id={`${prefix}-trace-text`}
              rows={5}
              spellCheck={false}
              value={trace.text}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${prefix}-trace-error` : `${prefix}-trace-hint`}
              onChange={(e) => onTrace(e.target.value, 'pasted')}
            />
            {error ? (
              <div className="field-error" id={`${prefix}-trace-error`} role="alert">
                {trace.origin && trace.origin !== 'pasted' ? `${trace.origin}: ` : ''}
                {error}
              </div>
            ) : (
              <div className="hint" id={`${prefix}-trace-hint`} data-testid={`${prefix}-trace-summary`}>
                {empty
                  ? 'No trace yet: choose a file, paste sizes or use the sample (a synthetic GOP trace).'
                  : check === null
                    ? 'Checking the trace…'
                    : check.ok
                      ? `${trace.origin ? `${trace.origin}: ` : ''}${check.summary.frames} frames, mean ${Math.round(check.summary.mean_bytes)} B (${check.summary.min_bytes}–${check.summary.max_bytes} B), ${formatRate(check.summary.mean_rate_bps)} unscaled.`
                      : ''}{' '}
                Every {vi?.name ?? className} stream replays the trace cyclically from a seeded random frame, one frame every{' '}
                {vi ? `${vi.frameIntervalUs / 1000} ms` : 'frame interval of the presets'}, with every frame scaled so the stream’s mean
                rate is {rate} (the synthetic model’s): {vi?.name ?? className} opens as many connections and offers the same load
                {vi ? ` (${vi.load} of each link)` : ''}; only the frame-size pattern changes.
              </div>
            )}
            {!empty && !traceFitsLink(trace.text) ? (
              <div className="note" data-testid={`${prefix}-trace-link-note`}>
                The share link does not include this trace (it is more than {TRACE_LINK_MAX_CHARS / 1024} KiB of text): it says
                “trace”, and whoever opens it must upload the file again.
              </div>
            ) : null}
          </div>
        </div>
      ) : null}
    </fieldset>
  );
}
