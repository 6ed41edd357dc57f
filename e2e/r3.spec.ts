// The R3 study (InfiniBand vs Omni-Path switches with DTable) in the experiment view: a
// grouped study, a panel per topology and a line per switch model for the SL chosen. A
// reduced sweep of the 4-ary 3-tree (the default panel) runs in the workers in under two
// minutes, draws the panels with 90% bands, switches SL and small multiples, exports, and
// its share link reproduces the same numbers.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSidewaysScroll, screens } from './helpers';

const view = (page: Page) => page.getByRole('main', { name: 'InfiniBand vs Omni-Path switches with DTable (R3)' });
const status = (page: Page) => view(page).getByTestId('r3-status');

/** The exported CSV of a chart, as text. */
async function csvOf(page: Page, id: string): Promise<string> {
  const [csv] = await Promise.all([page.waitForEvent('download'), view(page).getByTestId(`r3-${id}`).getByRole('button', { name: 'Export CSV' }).click()]);
  expect(csv.suggestedFilename()).toBe(`qoslab-r3-${id}.csv`);
  return readFile(await csv.path(), 'utf8');
}

test('a reduced R3 sweep of the 4-ary 3-tree draws a panel per topology with bands, and its link reproduces it', async ({ page, context }) => {
  test.setTimeout(360_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./');
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'InfiniBand vs Omni-Path (R3)' }).click();
  await expect(view(page)).toBeVisible();
  // The study's defaults: the 4-ary 3-tree only, four loads, three seeds of 100 µs, and an estimate.
  await expect(view(page).getByLabel('Total offered loads (fractions of the link)')).toHaveValue('0.7, 0.8, 0.9, 1');
  await expect(view(page).getByLabel('Simulated time per run (µs)')).toHaveValue('100');
  await expect(view(page).getByTestId('r3-panel-0')).toBeChecked();
  for (const i of [1, 2, 3]) await expect(view(page).getByTestId(`r3-panel-${i}`)).not.toBeChecked();
  await expect(view(page).getByTestId('r3-estimate')).toContainText('24 runs on');
  // Ticking the 8x8x8 torus makes the estimate minutes long; no panel at all is refused.
  await view(page).getByTestId('r3-panel-3').check();
  await expect(view(page).getByTestId('r3-estimate')).toContainText('min on a 2-core machine');
  await view(page).getByTestId('r3-panel-3').uncheck();
  await view(page).getByTestId('r3-panel-0').uncheck();
  await expect(view(page).getByText('Choose at least one panel to run.')).toBeVisible();
  await expect(view(page).getByRole('button', { name: 'Run R3 sweep' })).toBeDisabled();
  await view(page).getByTestId('r3-panel-0').check();

  // The reduced sweep: 3 loads x 2 seeds of 60 µs, for both switch models.
  await view(page).getByLabel('Total offered loads (fractions of the link)').fill('0.7, 0.85, 1');
  await view(page).getByLabel('Seeds per point').fill('2');
  await view(page).getByLabel('First seed').fill('4');
  await view(page).getByLabel('Simulated time per run (µs)').fill('60');
  await expect(view(page).getByText('12 runs in all.')).toBeVisible();
  const started = Date.now();
  await view(page).getByRole('button', { name: 'Run R3 sweep' }).click();
  await expect(status(page)).toContainText('Done: 12 runs', { timeout: 120_000 });
  expect(Date.now() - started).toBeLessThan(120_000);

  // One panel (the topology run), a line and a band per switch model of it, for the SL chosen.
  for (const id of ['r3-mean', 'r3-throughput']) {
    const chart = view(page).getByTestId(id);
    await expect(chart.locator('g.panel-plot')).toHaveCount(1);
    await expect(chart.locator('g.panel-plot')).toHaveAttribute('data-panel', '4-ary 3-tree');
    await expect(chart.locator('g.panel-series')).toHaveCount(2);
    await expect(chart.locator('g.panel-series').nth(0)).toHaveAttribute('data-series', 'InfiniBand');
    await expect(chart.locator('g.panel-series').nth(1)).toHaveAttribute('data-series', 'Omni-Path');
    await expect(chart.locator('path.panel-line')).toHaveCount(2);
    await expect(chart.locator('path.ci-band')).toHaveCount(2);
    await expect(chart.getByRole('img')).toHaveAttribute('aria-label', /90% confidence intervals/);
  }
  await expect(view(page).getByTestId('r3-mean').getByRole('heading')).toHaveText('Mean latency per SL vs offered load (NC)');
  // Another SL, then every SL as small multiples (a panel per SL of the topology).
  const chooser = view(page).getByLabel('Service level shown');
  await chooser.selectOption({ label: 'VO' });
  await expect(view(page).getByTestId('r3-mean').getByRole('heading')).toHaveText('Mean latency per SL vs offered load (VO)');
  await chooser.selectOption({ label: 'All (small multiples)' });
  const mean = view(page).getByTestId('r3-mean');
  await expect(mean.locator('g.panel-plot')).toHaveCount(7);
  await expect(mean.locator('g.panel-plot').first()).toHaveAttribute('data-panel', '4-ary 3-tree · NC');
  const bands = mean.locator('path.ci-band');
  await expect(bands).toHaveCount(14);
  // Two seeds differ, so the bands have a width.
  const heights = await bands.evaluateAll((paths) => paths.map((p) => (p as SVGPathElement).getBBox().height));
  expect(heights.filter((h) => h > 0.5).length, `band heights ${heights.join(', ')}`).toBeGreaterThanOrEqual(5);
  // Admission per connection class: admitted + refused = requested.
  await expect(view(page).getByTestId('r3-admission')).toBeVisible();

  // Exports: per-SL throughput in flits/cycle/node, and latency, for every configuration run.
  const flits = (await csvOf(page, 'throughput')).trim().split('\r\n');
  expect(flits[0]).toBe('scheduler,load,class,runs,flits_per_cycle,flits_per_cycle_ci90');
  expect(flits).toHaveLength(1 + 2 * 3 * 7);
  // Below saturation the QoS SLs get what they inject: CL's admitted connections carry the most.
  // Rows are `"4-ary 3-tree, InfiniBand",load,SL,runs,value,half-width` (the label is quoted: it has a comma).
  const at = (load: string, sl: string) => Number(flits.find((l) => l.startsWith(`"4-ary 3-tree, InfiniBand",${load},${sl},`))?.split(',').at(-2));
  expect(at('0.7', 'CL')).toBeGreaterThan(0.2);
  expect(at('0.7', 'CL')).toBeGreaterThan(at('0.7', 'VI'));
  const meanCsv = (await csvOf(page, 'mean')).split('\r\n');
  expect(meanCsv[0]).toBe('scheduler,load,class,runs,mean_ns,mean_ns_ci90');

  await page.screenshot({ path: `${screens}r3-1440.png`, fullPage: true });
  await mean.screenshot({ path: `${screens}r3-mean-1440.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${screens}r3-390.png`, fullPage: true });
  await view(page).locator('section.panel').first().screenshot({ path: `${screens}r3-form-390.png` });
  await mean.screenshot({ path: `${screens}r3-mean-390.png` });
  await page.setViewportSize({ width: 1440, height: 900 });

  // The share link carries the view, every parameter and the panels run; re-running it gives the same numbers.
  await expect(page).toHaveURL(/#view=r3&loads=0\.7,0\.85,1&seeds=2&seed=4&us=60&panels=0$/);
  const link = await view(page).getByLabel('Share link').inputValue();
  expect(link).toMatch(/#view=r3&loads=0\.7,0\.85,1&seeds=2&seed=4&us=60&panels=0$/);
  const other = await context.newPage();
  await other.setViewportSize({ width: 1440, height: 900 });
  await other.goto(link);
  await expect(view(other).getByLabel('Total offered loads (fractions of the link)')).toHaveValue('0.7, 0.85, 1');
  await expect(view(other).getByLabel('Seeds per point')).toHaveValue('2');
  await expect(view(other).getByLabel('First seed')).toHaveValue('4');
  await expect(view(other).getByLabel('Simulated time per run (µs)')).toHaveValue('60');
  await expect(view(other).getByTestId('r3-panel-0')).toBeChecked();
  await view(other).getByRole('button', { name: 'Run R3 sweep' }).click();
  await expect(status(other)).toContainText('Done: 12 runs', { timeout: 120_000 });
  const again = (await csvOf(other, 'throughput')).trim().split('\r\n');
  expect(again).toEqual(flits);
  await other.close();
});

test('the R3 lesson’s last question: the Omni-Path-like switch gives VO the lower mean latency at load 1.0', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('./#view=lessons&lesson=r3-switches&step=3');
  const q = page.getByTestId('lesson-question');
  await q.getByLabel('Omni-Path-like').check();
  await q.getByRole('button', { name: 'Check against a run' }).click();
  await expect(q.getByTestId('lesson-verdict')).toContainText('Right', { timeout: 60_000 });
});
