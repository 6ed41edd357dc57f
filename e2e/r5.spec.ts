// The R5 view (DWCS on a network processor): a short sweep of the heap and HILQ presets over
// the utilisation U, the network-processor metrics plotted, and the lesson's question
// answered against its runs.
import { expect, test, type Page } from '@playwright/test';
import { expectNoSidewaysScroll, screens } from './helpers';

const view = (page: Page) => page.getByRole('main', { name: 'DWCS on a network processor (R5)' });

test('a short R5 sweep plots window violations, accesses and cycles per packet for the heap and HILQ', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./#view=r5&loads=0.8,1.4&seeds=1&seed=&us=30000');
  await expect(view(page)).toBeVisible();
  await expect(view(page).getByLabel('Utilisation U values')).toHaveValue('0.8, 1.4');
  await view(page).getByRole('button', { name: 'Run R5 sweep' }).click();
  await expect(view(page).getByTestId('r5-status')).toContainText('Done: 4 runs', { timeout: 90_000 });
  for (const id of ['r5-violations', 'r5-accesses', 'r5-cycles', 'r5-throughput']) {
    const chart = view(page).getByTestId(id);
    // One stream group, one panel; a line per version.
    await expect(chart.locator('g.panel-plot')).toHaveCount(1);
    await expect(chart.locator('path.panel-line')).toHaveCount(2);
  }
  await page.screenshot({ path: `${screens}r5-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${screens}r5-390.png`, fullPage: true });
});

test('the R5 lesson’s question: HILQ needs fewer memory accesses per packet', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('./#view=lessons&lesson=r5-dwcs&step=2');
  const q = page.getByTestId('lesson-question');
  await q.getByLabel('HILQ').check();
  await q.getByRole('button', { name: 'Check against a run' }).click();
  await expect(q.getByTestId('lesson-verdict')).toContainText('Right', { timeout: 60_000 });
});
