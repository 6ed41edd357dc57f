// Screenshots of every chart at 1440 and 390 px (the link lab's CDF, the comparison's CDF
// and bars, the sweep's small multiples; the experiment view's are taken by
// screens.spec.ts), for looking at before and after a change to the charts or their marks.
// Each chart is also checked for its export buttons and for not scrolling sideways.
import { expect, test, type Page } from '@playwright/test';
import { openApp, runToEnd, screens } from './helpers';

const noSideways = (page: Page, width: number) =>
  expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

for (const width of [1440, 390]) {
  test(`the link lab, comparison and sweep charts at ${width} px`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: 900 });
    await openApp(page, '#preset=r1-dtable');
    await runToEnd(page);
    const cdf = page.getByTestId('results').locator('svg.cdf-chart, .cdf-chart svg').first();
    await expect(cdf).toBeVisible();
    await cdf.screenshot({ path: `${screens}charts-${width}-lab-cdf.png` });

    const comparison = page.getByRole('region', { name: 'Comparison' });
    await comparison.getByRole('button', { name: 'Compare the R1 schedulers' }).click();
    await expect(comparison.getByTestId('compare-status')).toHaveText('Compared 3 runs.', { timeout: 120_000 });
    const compareCharts = comparison.locator('svg[role="img"]');
    await expect(compareCharts).toHaveCount(2);
    await compareCharts.nth(0).screenshot({ path: `${screens}charts-${width}-compare-cdf.png` });
    await compareCharts.nth(1).screenshot({ path: `${screens}charts-${width}-compare-bars.png` });
    await expect(comparison.getByRole('button', { name: 'Export SVG' }).first()).toBeVisible();

    const sweep = page.getByRole('region', { name: /^Sweep/ });
    await sweep.getByLabel('Offered loads (fractions of the link)').fill('0.5, 1, 2');
    await sweep.getByLabel('Duration per point (µs)').fill('2000');
    await sweep.getByRole('button', { name: 'Run sweep' }).click();
    await expect(sweep.getByTestId('sweep-status')).toContainText('Done: 9 points', { timeout: 120_000 });
    await sweep.getByTestId('sweep-chart').screenshot({ path: `${screens}charts-${width}-sweep.png` });
    await noSideways(page, width);
  });
}
