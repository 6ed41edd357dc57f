import { afterEach, describe, expect, it, vi } from 'vitest';
import { cdfToCsv, csvField, downloadText, svgToString } from './export';

const SVG_NS = 'http://www.w3.org/2000/svg';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
  document.head.innerHTML = '';
});

describe('cdfToCsv', () => {
  it('writes one row per point with RFC 4180 quoting', () => {
    const csv = cdfToCsv([
      { label: 'Voice', points: [[100, 0.5], [250.5, 1]] },
      { label: 'Bulk, "best" effort', points: [[1e6, 1]] },
      { label: 'Idle', points: [] },
    ]);
    expect(csv).toBe(
      'series,latency_ns,fraction\r\n' +
        'Voice,100,0.5\r\n' +
        'Voice,250.5,1\r\n' +
        '"Bulk, ""best"" effort",1000000,1\r\n',
    );
  });

  it('quotes line breaks and leaves plain names alone', () => {
    expect(csvField('a\nb')).toBe('"a\nb"');
    expect(csvField('plain name')).toBe('plain name');
    expect(cdfToCsv([])).toBe('series,latency_ns,fraction\r\n');
  });
});

describe('svgToString', () => {
  it('gives a standalone SVG with xmlns, size, background and content', () => {
    const svg = document.createElementNS(SVG_NS, 'svg');
    svg.setAttribute('width', '300');
    svg.setAttribute('height', '200');
    const title = document.createElementNS(SVG_NS, 'title');
    title.textContent = 'T';
    const path = document.createElementNS(SVG_NS, 'path');
    path.setAttribute('class', 'cdf-curve');
    path.setAttribute('d', 'M0,10H5V0');
    svg.append(title, path);
    document.body.appendChild(svg);

    const text = svgToString(svg);
    expect(text.startsWith('<?xml')).toBe(true);
    expect(text.match(/xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g)).toHaveLength(1);
    expect(text).toContain('width="300"');
    expect(text).toMatch(/<title>T<\/title><rect [^>]*fill="#ffffff"/);
    expect(text).toContain('<path class="cdf-curve" d="M0,10H5V0"');
    // The page's element is untouched.
    expect(svg.querySelector('rect')).toBeNull();
    // Parses back as SVG.
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    expect(doc.documentElement.namespaceURI).toBe(SVG_NS);
    expect(doc.querySelectorAll('path.cdf-curve')).toHaveLength(1);
  });

  it('inlines properties set by page CSS only where rules apply', () => {
    const style = document.createElement('style');
    style.textContent = '.cdf-curve { stroke-width: 3px; } .other { stroke: red; }';
    document.head.appendChild(style);
    const svg = document.createElementNS(SVG_NS, 'svg');
    const path = document.createElementNS(SVG_NS, 'path');
    path.setAttribute('class', 'cdf-curve');
    path.setAttribute('stroke', '#0072B2');
    svg.appendChild(path);
    document.body.appendChild(svg);

    const text = svgToString(svg);
    expect(text).toContain('<path class="cdf-curve" stroke="#0072B2" style="stroke-width: 3px;"/>');
    expect(text).not.toContain('red');
    expect(path.getAttribute('style')).toBeNull();
  });
});

describe('downloadText', () => {
  it('clicks a download link for a blob with the text', async () => {
    let blob: Blob | undefined;
    vi.stubGlobal('URL', Object.assign(Object.create(URL) as typeof URL, {
      createObjectURL: (b: Blob) => ((blob = b), 'blob:test'),
      revokeObjectURL: () => {},
    }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('x.csv');
      expect(this.getAttribute('href')).toBe('blob:test');
    });
    downloadText('x.csv', 'text/csv', 'a,b\r\n');
    expect(click).toHaveBeenCalledTimes(1);
    expect(blob?.type).toBe('text/csv');
    expect(await blob?.text()).toBe('a,b\r\n');
    expect(document.querySelector('a')).toBeNull();
  });
});
