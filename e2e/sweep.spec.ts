// The load sweep of the R1 schedulers, in Chromium against the built site.
import { expect, test, type Page } from '@playwright/test';
import { openApp, screens } from './helpers';

const sweep = (page: Page) => page.getByRole('region', { name: /^Sweep/ });

test('a reduced sweep plots throughput vs load for three schedulers and lists the numbers', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page, '#preset=r1-dtable');
  await sweep(page).getByLabel('Offered loads (fractions of the link)').fill('0.5, 1, 2');
  await sweep(page).getByLabel('Duration per point (µs)').fill('5000');
  await expect(sweep(page).getByText('3 loads × 3 schedulers = 9 runs.')).toBeVisible();
  await sweep(page).getByRole('button', { name: 'Run sweep' }).click();
  await expect(sweep(page).getByTestId('sweep-status')).toContainText('Done: 9 points', { timeout: 120_000 });

  const chart = sweep(page).getByTestId('sweep-chart');
  await expect(chart.locator('g.panel-plot')).toHaveCount(3);
  await expect(chart.locator('path.panel-line')).toHaveCount(12);
  for (let i = 0; i < 12; i++) {
    expect((await chart.locator('path.panel-line').nth(i).getAttribute('d')) ?? '').toMatch(/^M[\d.,-]+L[\d.,-]+L[\d.,-]+$/);
  }
  await expect(chart.locator('text', { hasText: 'Offered load (fraction of link)' })).toHaveCount(3);
  await expect(chart.locator('text', { hasText: 'Throughput (fraction of link)' })).toHaveCount(3);
  await expect(chart.locator('g.multi-legend-item')).toHaveCount(4);
  const rows = sweep(page).getByTestId('sweep-table').locator('tbody tr');
  await expect(rows).toHaveCount(9);
  // Past saturation (total load 2) R1 shows: the AS table splits by packet size, DTable evenly.
  const percents = async (row: number) =>
    (await rows.nth(row).locator('td').allTextContents()).filter((t) => t.endsWith('%')).map((t) => parseFloat(t));
  const as2 = await percents(2);
  const dtable2 = await percents(8);
  expect(as2[0]).toBe(200);
  expect(as2[4]!).toBeGreaterThanOrEqual(8 * as2[1]!);
  expect(Math.max(...dtable2.slice(1))).toBeLessThanOrEqual(1.05 * Math.min(...dtable2.slice(1)));

  const [csv] = await Promise.all([page.waitForEvent('download'), sweep(page).getByRole('button', { name: 'Export CSV' }).click()]);
  expect(csv.suggestedFilename()).toBe('qoslab-sweep.csv');

  await sweep(page).scrollIntoViewIfNeeded();
  await sweep(page).screenshot({ path: `${screens}sweep.png` });
  await page.setViewportSize({ width: 600, height: 900 });
  await sweep(page).screenshot({ path: `${screens}sweep-narrow.png` });
});

test('a sweep can be cancelled', async ({ page }) => {
  await openApp(page, '#preset=r1-dtable');
  await sweep(page).getByLabel('Duration per point (µs)').fill('200000');
  await sweep(page).getByRole('button', { name: 'Run sweep' }).click();
  await expect(sweep(page).getByTestId('sweep-progress')).toBeVisible();
  await sweep(page).getByRole('button', { name: 'Cancel sweep' }).click();
  await expect(sweep(page).getByTestId('sweep-status')).toContainText('Cancelled');
  await expect(sweep(page).getByRole('button', { name: 'Run sweep' })).toBeEnabled();
});
