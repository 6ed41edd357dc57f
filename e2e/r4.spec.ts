// The R4 study (two VCs at the switches) in the experiment view: a reduced sweep of the four
// switch designs at load 1.0 runs in the workers, draws the latency CDFs per class and the
// hardware cost table, and its share link brings the parameters back.
import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { screens } from './helpers';

const view = (page: Page) => page.getByRole('main', { name: 'Full QoS with two VCs at the switches (R4)' });

/** The cost table's rows as text, header cell first. */
const costCells = (table: Locator) =>
  table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').trim())));

test('a reduced R4 sweep runs the four switch designs, draws a latency CDF per class and their cost, and its link reproduces it', async ({ page, context }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./#view=r4');
  await expect(view(page)).toBeVisible();
  await view(page).getByLabel('Total offered loads (fractions of the link)').fill('1');
  await view(page).getByLabel('Seeds per point').fill('1');
  await view(page).getByLabel('First seed').fill('3');
  await view(page).getByLabel('Simulated time per run (µs)').fill('300');
  await expect(view(page).getByText('4 runs in all.')).toBeVisible();
  await view(page).getByRole('button', { name: 'Run R4 sweep' }).click();
  await expect(view(page).getByTestId('r4-status')).toContainText('Done: 4 runs', { timeout: 120_000 });
  // Eight classes, a step curve per design in each class panel.
  const cdf = view(page).getByTestId('r4-cdf');
  await expect(cdf.locator('g.panel-plot')).toHaveCount(8);
  await expect(cdf.locator('path.panel-line')).toHaveCount(32);
  // The cost panel: one row per design, from the runs' hardware blocks.
  const cost = view(page).getByTestId('r4-cost');
  await expect(cost.locator('tbody tr')).toHaveCount(4);
  const row = (label: string) => cost.locator(`tbody tr[data-configuration="${label}"]`);
  await expect(row('Traditional 8 VCs').locator('td[data-col="switches"]')).toHaveText('48');
  await expect(row('Traditional 8 VCs').locator('td[data-col="links"]')).toHaveText('192');
  await expect(row('Traditional 8 VCs').locator('td[data-col="vcs"]')).toHaveText('8');
  await expect(row('New 2 VCs-P').locator('td[data-col="switches"]')).toHaveText('16');
  await expect(row('New 2 VCs-P').locator('td[data-col="links"]')).toHaveText('128');
  await expect(row('New 2 VCs-P').locator('td[data-col="vcs"]')).toHaveText('2');
  await expect(row('Traditional 8 VCs')).toContainText('3792 mm²');
  const [csv] = await Promise.all([page.waitForEvent('download'), view(page).getByTestId('r4-cost-panel').getByRole('button', { name: 'Export CSV' }).click()]);
  expect(csv.suggestedFilename()).toBe('qoslab-r4-cost.csv');
  const lines = (await readFile(await csv.path(), 'utf8')).split('\r\n');
  expect(lines[0]).toMatch(/^configuration,switches,links,ports_per_switch,vcs_per_port,/);
  expect(lines.find((l) => l.startsWith('Traditional 8 VCs,'))).toMatch(/^Traditional 8 VCs,48,192,8,8,/);
  expect(lines.find((l) => l.startsWith('New 2 VCs-P,'))).toMatch(/^New 2 VCs-P,16,128,16,2,/);
  const costs = await costCells(cost);
  await view(page).getByTestId('r4-cost-panel').screenshot({ path: `${screens}r4-cost-1440.png` });
  await page.screenshot({ path: `${screens}r4-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${screens}r4-390.png`, fullPage: true });
  await view(page).getByTestId('r4-cost-panel').screenshot({ path: `${screens}r4-cost-390.png` });
  await page.setViewportSize({ width: 1440, height: 900 });

  // The share link carries the view and every parameter; re-running gives the same cost table.
  await expect(page).toHaveURL(/#view=r4&loads=1&seeds=1&seed=3&us=300$/);
  const link = await view(page).getByLabel('Share link').inputValue();
  expect(link).toMatch(/#view=r4&loads=1&seeds=1&seed=3&us=300$/);
  const other = await context.newPage();
  await other.setViewportSize({ width: 1440, height: 900 });
  await other.goto(link);
  await expect(view(other).getByLabel('Total offered loads (fractions of the link)')).toHaveValue('1');
  await expect(view(other).getByLabel('Seeds per point')).toHaveValue('1');
  await expect(view(other).getByLabel('First seed')).toHaveValue('3');
  await expect(view(other).getByLabel('Simulated time per run (µs)')).toHaveValue('300');
  await view(other).getByRole('button', { name: 'Run R4 sweep' }).click();
  await expect(view(other).getByTestId('r4-status')).toContainText('Done: 4 runs', { timeout: 120_000 });
  expect(await costCells(view(other).getByTestId('r4-cost'))).toEqual(costs);
  await other.close();
});
