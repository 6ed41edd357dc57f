// For snapshot tests of charts: an SVG element as indented text, one element a line,
// attributes sorted, every number in an attribute rounded to 1 decimal (so a drawing
// change shows as a readable diff, and sub-pixel noise does not); text is kept as is.

const round = (text: string): string =>
  text.replace(/-?\d+\.\d+(e[-+]?\d+)?/g, (m) => {
    const v = Math.round(Number(m) * 10) / 10 + 0;
    return String(v);
  });

function lines(el: Element, depth: number, out: string[]) {
  const pad = '  '.repeat(depth);
  const attrs = [...el.attributes]
    .filter((a) => !(el.tagName === 'svg' && a.name === 'aria-label'))
    .map((a) => `${a.name}="${round(a.value)}"`)
    .sort();
  const open = `${pad}<${el.tagName}${attrs.length ? ` ${attrs.join(' ')}` : ''}`;
  const texts = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent ?? '').join('').trim();
  const children = [...el.children];
  if (children.length === 0) {
    out.push(texts ? `${open}>${texts}</${el.tagName}>` : `${open} />`);
    return;
  }
  out.push(`${open}>${texts}`);
  for (const c of children) lines(c, depth + 1, out);
  out.push(`${pad}</${el.tagName}>`);
}

/** The SVG (the first `<svg>` in `root`) as indented text with numbers rounded. */
export function svgSnapshot(root: ParentNode): string {
  const svg = root.querySelector('svg');
  if (!svg) throw new Error('no <svg> to snapshot');
  const out: string[] = [];
  lines(svg, 0, out);
  return `\n${out.join('\n')}\n`;
}
