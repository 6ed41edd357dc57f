// The R4 study (two VCs at the switches) in the experiment view: a reduced sweep of the four
// switch designs at load 1.0 runs in the workers and draws the QoS latency CDFs per class.
import { expect, test, type Page } from '@playwright/test';
import { screens } from './helpers';

const view = (page: Page) => page.getByRole('main', { name: 'Full QoS with two VCs at the switches (R4)' });

test('a reduced R4 sweep runs the four switch designs and draws a latency CDF per class', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./#view=r4');
  await expect(view(page)).toBeVisible();
  await view(page).getByLabel('Total offered loads (fractions of the link)').fill('1');
  await view(page).getByLabel('Seeds per point').fill('1');
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
  await expect(view(page).getByTestId('r4-cost-panel').getByRole('button', { name: 'Export CSV' })).toBeEnabled();
  await page.screenshot({ path: `${screens}r4-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${screens}r4-390.png`, fullPage: true });
});
