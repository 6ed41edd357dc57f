// The R2 view (multimedia network): a reduced sweep of the four R2 presets with two seeds,
// confidence bands, CDFs and the improvement table; cancel; the share link reproduces it.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { cliPath, root, screens } from './helpers';

const view = (page: Page) => page.getByRole('main', { name: 'Multimedia network (R2)' });
const status = (page: Page) => view(page).getByTestId('r2-status');

/** Fills the sweep form. */
async function fill(page: Page, loads: string, seeds: string, seed: string, us: string) {
  await view(page).getByLabel('Total offered loads (fractions of the link)').fill(loads);
  await view(page).getByLabel('Seeds per point').fill(seeds);
  await view(page).getByLabel('First seed').fill(seed);
  await view(page).getByLabel('Simulated time per run (µs)').fill(us);
}

/** The improvement table's cells, row by row. */
async function tableCells(table: Locator): Promise<string[][]> {
  const rows = table.locator('tbody tr');
  const out: string[][] = [];
  for (let i = 0; i < (await rows.count()); i++) out.push(await rows.nth(i).locator('th, td').allTextContents());
  return out;
}

test('a reduced R2 sweep plots bands and CDFs, fills the improvement table, and its link reproduces it', async ({ page, context }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./');
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Multimedia network (R2)' }).click();
  await expect(view(page)).toBeVisible();
  // The spec's defaults.
  await expect(view(page).getByLabel('Total offered loads (fractions of the link)')).toHaveValue('0.76, 0.8, 0.84, 0.88, 0.92, 0.96, 1');
  await expect(view(page).getByLabel('Seeds per point')).toHaveValue('10');

  await fill(page, '0.8, 0.9, 1', '2', '5', '1000');
  await expect(view(page).getByText('24 runs in all.')).toBeVisible();
  await view(page).getByRole('button', { name: 'Run R2 sweep' }).click();
  await expect(status(page)).toContainText('Done: 24 runs', { timeout: 45_000 });
  await expect(view(page).getByTestId('r2-points').locator('td.point-done')).toHaveCount(12);

  // Three metrics vs load: a panel per class (7), a line and a band per scheduler (4).
  for (const id of ['r2-throughput', 'r2-mean', 'r2-p99']) {
    const chart = view(page).getByTestId(id);
    await expect(chart.locator('g.panel-plot')).toHaveCount(7);
    await expect(chart.locator('path.panel-line')).toHaveCount(28);
    const bands = chart.locator('path.ci-band');
    await expect(bands).toHaveCount(28);
    // Two seeds differ, so every interval has a width: the band covers an area.
    const heights = await bands.evaluateAll((paths) => paths.map((p) => (p as SVGPathElement).getBBox().height));
    expect(heights.every((h) => h > 0.5), `band heights ${heights.join(', ')}`).toBe(true);
    const whiskers = await chart.locator('g.ci-whiskers line').evaluateAll((ls) =>
      ls.map((l) => Math.abs(Number(l.getAttribute('y1')) - Number(l.getAttribute('y2')))),
    );
    expect(whiskers).toHaveLength(7 * 4 * 3);
    expect(whiskers.filter((h) => h > 0).length).toBeGreaterThan(whiskers.length * 0.9);
    await expect(chart.getByRole('img')).toHaveAttribute('aria-label', /90% confidence intervals/);
  }
  // Latency CDFs at the highest load: a step curve per scheduler in each class panel, ending at 1.
  const cdf = view(page).getByTestId('r2-cdf');
  await expect(cdf.getByRole('heading')).toHaveText('Latency CDF per class at load 1');
  await expect(cdf.locator('g.panel-plot')).toHaveCount(7);
  const curves = await cdf.locator('path.panel-line').evaluateAll((ps) => ps.map((p) => p.getAttribute('d') ?? ''));
  expect(curves).toHaveLength(28);
  expect(curves.every((d) => /^M[\d.,-]+(?:[LH][\d.,-]+){4,}/.test(d))).toBe(true);

  // Jitter at the highest load: VI (video packets follow each other within a frame) has a
  // curve per scheduler; VO and CL send every 20-22 ms, so 1 ms runs have no sample: said so.
  const jitter = view(page).getByTestId('r2-jitter');
  await expect(jitter.getByRole('heading')).toHaveText('Jitter CDF per connection class at load 1');
  await expect(jitter.locator('g.panel-plot')).toHaveCount(1);
  await expect(jitter.locator('g.panel-plot')).toHaveAttribute('data-panel', 'VI');
  const jitterCurves = await jitter.locator('path.panel-line').evaluateAll((ps) => ps.map((p) => p.getAttribute('d') ?? ''));
  expect(jitterCurves).toHaveLength(4);
  expect(jitterCurves.every((d) => /^M[\d.,-]+(?:[LH][\d.,-]+){4,}/.test(d))).toBe(true);
  await expect(jitter.getByTestId('r2-jitter-empty')).toHaveText(/VO \(no samples: run longer than 20 ms\)\s*CL \(no samples: run longer than 20 ms\)/);
  await expect(jitter.getByRole('img')).toHaveAttribute('aria-label', /Jitter \(.+\), signed, linear/);
  // Admission: one row per connection class, the same for every scheduler, admitted + refused = requested.
  const admission = view(page).getByTestId('r2-admission');
  await expect(admission.locator('caption')).toContainText('identical for every scheduler');
  const admitted = await tableCells(admission);
  expect(admitted.map((r) => r[0])).toEqual(['VO', 'VI', 'CL']);
  for (const [, req, adm, ref] of admitted) {
    expect(req).toMatch(/^\d+(?:(?:\.\d)? \(\d+–\d+\))?$/);
    expect(Number.parseFloat(adm!) + Number.parseFloat(ref!)).toBeCloseTo(Number.parseFloat(req!), 5);
    expect(Number.parseFloat(adm!)).toBeGreaterThan(0);
  }

  // Improvement of DTable: 7 classes x 3 loads, a mean and a p99 cell per other scheduler.
  const table = view(page).getByTestId('r2-improvement');
  await expect(table.locator('thead')).toContainText('vs DTable-WF2Q');
  await expect(table.locator('thead')).toContainText('vs DRR');
  const cells = await tableCells(table);
  expect(cells).toHaveLength(21);
  expect(cells.map((r) => r[1])).toEqual(Array.from({ length: 7 }, () => ['0.8', '0.9', '1']).flat());
  for (const row of cells) {
    expect(row).toHaveLength(2 + 6);
    for (const v of row.slice(2)) expect(v).toMatch(/^(?:[+−]\d+\.\d|0\.0) %$/);
  }
  // Each chart exports its own metric (they were one file under three names).
  const heads: string[] = [];
  for (const id of ['throughput', 'mean', 'p99']) {
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      view(page).getByTestId(`r2-${id}`).getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe(`qoslab-r2-${id}.csv`);
    heads.push((await readFile(await csv.path(), 'utf8')).split('\r\n')[0]!);
  }
  expect(heads).toEqual(['throughput', 'mean_ns', 'p99_ns'].map((m) => `scheduler,load,class,runs,${m},${m}_ci90`));
  // The improvement is the study's (other − DTable) / DTable, and the page says so.
  await expect(view(page).getByTestId('r2-improvement-formula')).toContainText('Improvement = (other − DTable) / DTable × 100 %');

  await page.screenshot({ path: `${screens}r2-view.png`, fullPage: true });
  await view(page).getByTestId('r2-mean').screenshot({ path: `${screens}r2-mean.png` });
  await view(page).getByTestId('r2-cdf').screenshot({ path: `${screens}r2-cdf.png` });
  await table.screenshot({ path: `${screens}r2-improvement.png` });
  await jitter.screenshot({ path: `${screens}r2-jitter.png` });
  await admission.screenshot({ path: `${screens}r2-admission.png` });
  // Narrow screens: panels stack, tables scroll inside their box, the page never scrolls sideways.
  await page.setViewportSize({ width: 600, height: 900 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(600);
  await page.screenshot({ path: `${screens}r2-narrow.png`, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });

  // The share link carries the view and every parameter; re-running gives the same numbers.
  await expect(page).toHaveURL(/#view=r2&loads=0\.8,0\.9,1&seeds=2&seed=5&us=1000$/);
  const link = await view(page).getByLabel('Share link').inputValue();
  expect(link).toMatch(/#view=r2&loads=0\.8,0\.9,1&seeds=2&seed=5&us=1000$/);
  const other = await context.newPage();
  await other.setViewportSize({ width: 1440, height: 900 });
  await other.goto(link);
  await expect(view(other).getByLabel('Total offered loads (fractions of the link)')).toHaveValue('0.8, 0.9, 1');
  await expect(view(other).getByLabel('Seeds per point')).toHaveValue('2');
  await expect(view(other).getByLabel('First seed')).toHaveValue('5');
  await expect(view(other).getByLabel('Simulated time per run (µs)')).toHaveValue('1000');
  await view(other).getByRole('button', { name: 'Run R2 sweep' }).click();
  await expect(status(other)).toContainText('Done: 24 runs', { timeout: 45_000 });
  expect(await tableCells(view(other).getByTestId('r2-improvement'))).toEqual(cells);
  await other.close();
});

test('the browser’s means and 90% half-widths equal those of qoslab sweep on the same runs', async ({ page }) => {
  await page.goto('./#view=r2&loads=0.8,1&seeds=2&us=1000');
  await view(page).getByRole('button', { name: 'Run R2 sweep' }).click();
  await expect(status(page)).toContainText('Done: 16 runs', { timeout: 45_000 });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    view(page).getByRole('button', { name: 'Export all points (CSV)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('qoslab-r2-points.csv');
  const lines = (await readFile(await download.path(), 'utf8')).trim().split('\r\n');
  const header = lines[0]!.split(',');
  const rows = lines.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [header[i]!, v])));
  // The same preset, loads, seeds (the preset's seed, then + 1) and duration on the CLI.
  type CliClass = { name: string; throughput: number; mean_ns: number | null; p99_ns: number | null; throughput_ci90: number | null; mean_ns_ci90: number | null };
  const cli = JSON.parse(
    execFileSync(cliPath, ['sweep', `${root}public/presets/r2-multimedia-drr.json`, '--loads', '0.8,1', '--seeds', '2', '--duration-ms', '1', '--quiet'], {
      encoding: 'utf8',
    }),
  ) as { points: { load: number; runs: number; classes: CliClass[] }[] };
  expect(cli.points).toHaveLength(2);
  for (const point of cli.points) {
    const mine = rows.filter((r) => r.scheduler === 'DRR' && Number(r.load) === point.load);
    expect(mine.map((r) => r.class)).toEqual(point.classes.map((c) => c.name));
    point.classes.forEach((c, i) => {
      const r = mine[i]!;
      expect(Number(r.runs)).toBe(point.runs);
      expect(Number(r.throughput)).toBe(c.throughput);
      expect(Number(r.throughput_ci90)).toBe(c.throughput_ci90);
      expect(Number(r.mean_ns)).toBe(c.mean_ns);
      expect(Number(r.mean_ns_ci90)).toBe(c.mean_ns_ci90);
      expect(Number(r.p99_ns)).toBe(c.p99_ns);
    });
  }
});

test('an R2 sweep can be cancelled and then makes no further progress', async ({ page }) => {
  await page.goto('./#view=r2');
  await fill(page, '0.8, 0.9, 1', '10', '', '20000');
  await view(page).getByRole('button', { name: 'Run R2 sweep' }).click();
  await expect(view(page).getByTestId('r2-progress')).toBeVisible();
  await expect(status(page)).toContainText(/Running: \d+ of 120 runs/);
  await view(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(status(page)).toContainText(/Cancelled: \d+ of 120 runs finished\./);
  await expect(view(page).getByTestId('r2-progress')).toBeHidden();
  const after = await status(page).textContent();
  const seeds = await view(page).getByTestId('r2-points').textContent();
  await page.waitForTimeout(1500);
  expect(await status(page).textContent()).toBe(after);
  expect(await view(page).getByTestId('r2-points').textContent()).toBe(seeds);
  await expect(view(page).getByRole('button', { name: 'Run R2 sweep' })).toBeEnabled();
});

test('a network scenario opened in the link lab is edited there, runs, and links to the R2 view', async ({ page }) => {
  await page.goto('./#preset=r2-multimedia-drr');
  const editor = page.getByTestId('network-editor');
  await expect(editor).toBeVisible();
  await expect(editor.getByTestId('topology-text')).toHaveText('folded perfect-shuffle MIN, 64 end points, 8-port switches');
  await expect(page.getByRole('button', { name: 'Animate decisions' })).toBeDisabled();
  // It runs in the lab: results per class of the network.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });
  await expect(page.getByRole('region', { name: 'Results' }).getByRole('rowheader', { name: 'VI' }).first()).toBeVisible();
  await editor.getByRole('link', { name: 'Multimedia network (R2) view' }).click();
  await expect(view(page)).toBeVisible();
  // And back: the view links each configuration to the lab.
  await view(page).getByRole('link', { name: 'SCFQ' }).click();
  await expect(page.getByTestId('network-editor').getByLabel('Switch output ports: scheduler')).toHaveValue('scfq');
});

/** VI throughput per (scheduler, load) from the throughput chart's CSV. */
async function viThroughput(page: Page): Promise<Map<string, number>> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    view(page).getByTestId('r2-throughput').getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const lines = (await readFile(await download.path(), 'utf8')).trim().split('\r\n').slice(1);
  const out = new Map<string, number>();
  for (const l of lines) {
    const [scheduler, load, cls, , throughput] = l.split(',');
    if (cls === 'VI') out.set(`${scheduler}@${load}`, Number(throughput));
  }
  return out;
}

test('an uploaded frame-size trace replaces the synthetic video: a bad file names its line, the sample sweeps at the same VI load', async ({ page, context }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./#view=r2&loads=1&seeds=2&seed=3&us=2000');
  const run = view(page).getByRole('button', { name: 'Run R2 sweep' });
  await run.click();
  await expect(status(page)).toContainText('Done: 8 runs', { timeout: 45_000 });
  const synthetic = await viThroughput(page);

  const source = view(page).getByTestId('r2-video');
  await source.getByRole('radio', { name: /Upload a frame-size trace/ }).check();
  await expect(run).toBeDisabled();
  const file = source.getByLabel('Frame-size trace file');
  await file.setInputFiles({ name: 'bad-trace.txt', mimeType: 'text/plain', buffer: Buffer.from('# my clip\n41230\n\n5200 # P\n12x\n') });
  const error = source.getByRole('alert');
  await expect(error).toHaveText('bad-trace.txt: Line 5: "12x" is not a frame size: write one whole number of bytes per line (comments start with #).');
  await expect(source.getByLabel(/Or paste a frame-size trace/)).toHaveAttribute('aria-invalid', 'true');
  await expect(run).toBeDisabled();
  await source.screenshot({ path: `${screens}r2-trace-error.png` });

  await file.setInputFiles(`${root}public/traces/sample-video.txt`);
  const summary = source.getByTestId('r2-trace-summary');
  await expect(summary).toContainText('sample-video.txt: 300 frames, mean 14287 B');
  await expect(summary).toContainText('scaled so the stream’s mean rate is 3 Mb/s');
  await expect(summary).toContainText('(0.453 of each link)');
  await expect(source.getByTestId('r2-trace-link-note')).toHaveCount(0);
  await source.screenshot({ path: `${screens}r2-trace-ok.png` });
  await run.click();
  await expect(status(page)).toContainText('Done: 8 runs', { timeout: 45_000 });
  await expect(view(page).getByTestId('r2-points').locator('caption')).toContainText('VI replays the frame-size trace (sample-video.txt, 300 frames)');
  const traced = await viThroughput(page);
  // Same VI rate and connections: the VI throughput stays within 15% of the synthetic model's.
  expect([...traced.keys()]).toEqual([...synthetic.keys()]);
  for (const [key, v] of traced) {
    const s = synthetic.get(key)!;
    expect(Math.abs(v - s) / s, `${key}: trace ${v}, synthetic ${s}`).toBeLessThan(0.15);
    expect(v).not.toBe(s);
  }

  // The link carries the (small) trace; opening it restores the source and the trace.
  await expect(page).toHaveURL(/&video=trace&trace=[\w-]+$/);
  const link = await view(page).getByLabel('Share link').inputValue();
  const other = await context.newPage();
  await other.goto(link);
  await expect(view(other).getByTestId('r2-video').getByRole('radio', { name: /Upload a frame-size trace/ })).toBeChecked();
  await expect(view(other).getByTestId('r2-trace-summary')).toContainText('from the link: 300 frames');
  await expect(view(other).getByRole('button', { name: 'Run R2 sweep' })).toBeEnabled();
  await other.close();

  // The sample button gives the same trace.
  await source.getByLabel(/Or paste a frame-size trace/).fill('');
  await source.getByRole('button', { name: 'Use the sample trace' }).click();
  await expect(summary).toContainText('the sample trace: 300 frames');
});
