import type { CdfSeries } from './CdfChart';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** Style properties that page CSS may set on chart elements; copied inline on export. */
const INLINE_PROPS = [
  'fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-opacity',
  'stroke-linecap', 'stroke-linejoin', 'opacity', 'visibility', 'display', 'font-family',
  'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline',
] as const;

function styleRules(doc: Document): CSSStyleRule[] {
  const out: CSSStyleRule[] = [];
  const walk = (rules: CSSRuleList) => {
    for (const r of Array.from(rules)) {
      if ('selectorText' in r && 'style' in r) out.push(r as CSSStyleRule);
      else if ('cssRules' in r) walk((r as CSSGroupingRule).cssRules);
    }
  };
  for (const sheet of Array.from(doc.styleSheets)) {
    try {
      walk(sheet.cssRules);
    } catch {
      // Cross-origin sheet: its rules cannot be read.
    }
  }
  return out;
}

function matches(el: Element, selector: string): boolean {
  try {
    return el.matches(selector);
  } catch {
    return false;
  }
}

/**
 * For each element styled by page CSS, copies the computed value of every property
 * those rules declare into its inline style (presentation attributes stay as they are).
 */
function inlinePageStyles(source: SVGSVGElement, clone: SVGSVGElement): void {
  const view = source.ownerDocument.defaultView;
  const rules = styleRules(source.ownerDocument);
  if (!view || rules.length === 0) return;
  const from = [source, ...Array.from(source.querySelectorAll('*'))];
  const to = [clone, ...Array.from(clone.querySelectorAll('*'))];
  from.forEach((el, i) => {
    const target = to[i];
    if (!(target instanceof view.SVGElement)) return;
    const declared = rules.filter((r) => matches(el, r.selectorText));
    const props = INLINE_PROPS.filter((p) => declared.some((r) => r.style.getPropertyValue(p) !== ''));
    if (props.length === 0) return;
    const computed = view.getComputedStyle(el);
    for (const p of props) {
      const value = computed.getPropertyValue(p);
      if (value) target.style.setProperty(p, value);
    }
  });
}

/**
 * Serialises an `<svg>` as a standalone document: xmlns declared, explicit size,
 * styles from page CSS inlined (so it renders outside the page) and a white
 * background. Presentation attributes (as CdfChart uses) are kept as they are.
 */
export function svgToString(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  inlinePageStyles(svg, clone);
  clone.setAttributeNS(XMLNS_NS, 'xmlns', SVG_NS);
  const box = svg.viewBox?.baseVal;
  const width = svg.getAttribute('width') ?? String(box?.width || svg.clientWidth || 720);
  const height = svg.getAttribute('height') ?? String(box?.height || svg.clientHeight || 360);
  clone.setAttribute('width', width);
  clone.setAttribute('height', height);
  const bg = svg.ownerDocument.createElementNS(SVG_NS, 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', '#ffffff');
  bg.setAttribute('stroke', 'none');
  // After <title>/<desc> so they stay the first children; before all drawing.
  const firstDrawn = Array.from(clone.children).find((c) => c.localName !== 'title' && c.localName !== 'desc');
  clone.insertBefore(bg, firstDrawn ?? null);
  const xml = new XMLSerializer().serializeToString(clone);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${xml}`;
}

function downloadBlob(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoke later: some browsers start the download asynchronously.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Offers `text` for download as `filename` with MIME type `mime`. */
export function downloadText(filename: string, mime: string, text: string): void {
  downloadBlob(filename, new Blob([text], { type: mime }));
}

/** Downloads the chart as a standalone `.svg` file (see {@link svgToString}). */
export function downloadSvg(svg: SVGSVGElement, filename: string): void {
  downloadText(filename, 'image/svg+xml;charset=utf-8', svgToString(svg));
}

/**
 * Rasterises the chart at `scale` × its size (white background) and downloads a PNG.
 * Browser only: needs Image decoding and a 2D canvas. Rejects when either fails.
 */
export async function downloadPng(svg: SVGSVGElement, filename: string, scale = 2): Promise<void> {
  const text = svgToString(svg);
  const width = Number(svg.getAttribute('width')) || svg.clientWidth || 720;
  const height = Number(svg.getAttribute('height')) || svg.clientHeight || 360;
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml;charset=utf-8' }));
  try {
    const img = new Image();
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error('Could not render the SVG as an image'));
      img.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('2D canvas is not available');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    const png = await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'),
    );
    downloadBlob(filename, png);
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Quotes a CSV field per RFC 4180 when it contains a comma, quote, CR or LF. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * CDF points as CSV (RFC 4180, CRLF line ends): header `series,latency_ns,fraction`,
 * then one row per point, named by the series label. Empty series add no rows.
 */
export function cdfToCsv(series: ReadonlyArray<Pick<CdfSeries, 'label' | 'points'>>): string {
  const rows = ['series,latency_ns,fraction'];
  for (const s of series) {
    const name = csvField(s.label);
    for (const [ns, f] of s.points) rows.push(`${name},${ns},${f}`);
  }
  return `${rows.join('\r\n')}\r\n`;
}
