// The R6 view (PCFQ against two separate WFQ schedulers on a network processor): a short
// run of both presets, the delay table per category and the delay-over-time plots drawn,
// the share link reproducing the same table, and the lesson's question answered.
import { expect, test, type Page } from '@playwright/test';
import { expectNoSidewaysScroll, screens } from './helpers';

const view = (page: Page) => page.getByRole('main', { name: 'PCFQ on a network processor (R6)' });

async function runR6(page: Page, hash: string): Promise<string[]> {
  await page.goto(hash);
  await expect(view(page)).toBeVisible();
  await view(page).getByRole('button', { name: 'Run R6 sweep' }).click();
  await expect(view(page).getByTestId('r6-status')).toContainText('Done: 2 runs', { timeout: 90_000 });
  const table = view(page).getByTestId('r6-delay-table');
  await expect(table.getByRole('row')).toHaveCount(1 + 5);
  return table.getByTestId('r6-delay-table-cell').allTextContents();
}

test('a short R6 run draws the delay table and the delay plots, and its share link reproduces them', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const cells = await runR6(page, './#view=r6&loads=0.9&seeds=1&seed=&us=50000');
  expect(cells).toHaveLength(10);
  for (const c of cells) expect(c).toMatch(/^[\d.]+ \/ [\d.]+ \/ [\d.]+$/);
  const series = view(page).getByTestId('r6-delay-series');
  // One panel per category; a line per scheduler.
  await expect(series.locator('g.panel-plot')).toHaveCount(5);
  await expect(series.locator('path.panel-line')).toHaveCount(10);
  await page.screenshot({ path: `${screens}r6-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // The charts re-measure their width after the resize: wait for the layout to settle.
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${screens}r6-390.png`, fullPage: true });
  // The share link holds the parameters: the same runs give the same table.
  const hash = await page.evaluate(() => window.location.hash);
  await page.setViewportSize({ width: 1440, height: 900 });
  const again = await runR6(page, `./${hash}`);
  expect(again).toEqual(cells);
});

test('the R6 lesson’s question: PCFQ gives the smaller delay spread', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('./#view=lessons&lesson=r6-pcfq&step=3');
  const q = page.getByTestId('lesson-question');
  await q.getByLabel('PCFQ').check();
  await q.getByRole('button', { name: 'Check against a run' }).click();
  await expect(q.getByTestId('lesson-verdict')).toContainText('Right', { timeout: 60_000 });
});

test('the decision animation explains PCFQ step by step, and DWCS', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('./#view=np-decisions&preset=r6-pcfq&from=5000&n=20');
  const player = page.getByTestId('np-decisions');
  await expect(player).toBeVisible({ timeout: 30_000 });
  const words = page.getByTestId('np-decisions-words');
  for (const part of ['PCFQ', 'smallest finish tag', 'Virtual time V', 'actual cost', 'predicted']) await expect(words).toContainText(part);
  await expect(page.getByTestId('np-decisions-candidates').getByText('✔ chosen')).toHaveCount(1);
  await expect(page.getByTestId('np-decisions-step')).toContainText('Decision 1 of 20');
  const first = await words.textContent();
  await page.getByRole('button', { name: 'Next ▶' }).click();
  await expect(page.getByTestId('np-decisions-step')).toContainText('Decision 2 of 20');
  expect(await words.textContent()).not.toEqual(first);
  await page.getByLabel('Scheduler').selectOption('r6-wfq');
  await expect(words).toContainText('Separate WFQ (CPU side)', { timeout: 30_000 });
  // DWCS plugs into the same view.
  await page.getByLabel('Scheduler').selectOption('r5-violations-heap');
  await expect(words).toContainText('DWCS (heap)', { timeout: 30_000 });
  await expect(words).toContainText('deadline');
  await page.setViewportSize({ width: 390, height: 844 });
  // The charts re-measure their width after the resize: wait for the layout to settle.
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${screens}r6-decisions-390.png`, fullPage: true });
});
