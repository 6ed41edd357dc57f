// The R5 view (DWCS on a network processor): a short sweep of the heap and HILQ presets over
// the utilisation U, the network-processor metrics plotted, and the lesson's question
// answered against its runs.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { expectNoSidewaysScroll, root, runButton, screens } from './helpers';

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

const study = (page: Page, title: string) => page.getByRole('main', { name: title });

test('R5’s streams experiment in the browser: accesses per packet against 10 and 1000 streams, heap and HILQ', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  // Reached from the R5 view's links to its other experiments.
  await page.goto('./#view=r5');
  await view(page).getByTestId('related-studies').getByRole('link', { name: 'Memory accesses vs streams' }).click();
  const v = study(page, 'DWCS memory accesses vs streams (R5)');
  await expect(v).toBeVisible();
  await expect(v.getByLabel('Streams values')).toHaveValue('10, 30, 100, 300, 1000, 3000, 10000');
  await page.goto('./#view=study&id=r5-streams&loads=10,1000&seeds=1&seed=&us=20000');
  await expect(v.getByLabel('Streams values')).toHaveValue('10, 1000');
  await v.getByRole('button', { name: 'Run R5 streams sweep' }).click();
  await expect(v.getByTestId('r5-streams-status')).toContainText('Done: 4 runs', { timeout: 90_000 });
  for (const id of ['r5-streams-accesses', 'r5-streams-cycles', 'r5-streams-active']) {
    const chart = v.getByTestId(id);
    await expect(chart.locator('g.panel-plot')).toHaveCount(1);
    await expect(chart.locator('path.panel-line')).toHaveCount(2);
    await expect(chart).toContainText('Heap (exact)');
    await expect(chart).toContainText('HILQ');
  }
  // The x axis is the stream count, on a log scale (ticks at whole decades).
  await expect(v.getByTestId('r5-streams-accesses')).toContainText('Streams');
  await page.screenshot({ path: `${screens}r5-streams-1440.png`, fullPage: true });
});

test('R5’s budget experiment in the browser: cycles per packet against the link’s budget at 128 B and 1 KB', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./#view=study&id=r5-budget&loads=128,1024&seeds=1&seed=&us=30000');
  const v = study(page, 'DWCS cost vs the link’s budget (R5)');
  await expect(v.getByLabel('Packet size (bytes) values')).toHaveValue('128, 1024');
  await v.getByRole('button', { name: 'Run R5 budget sweep' }).click();
  await expect(v.getByTestId('r5-budget-status')).toContainText('Done: 4 runs', { timeout: 90_000 });
  // Heap, HILQ and the link's budget per packet as the reference line.
  const cycles = v.getByTestId('r5-budget-cycles');
  await expect(cycles.locator('path.panel-line')).toHaveCount(3);
  await expect(cycles).toContainText('Link budget (cycles per packet at line rate)');
  for (const id of ['r5-budget-rate', 'r5-budget-streams', 'r5-budget-accesses']) {
    await expect(v.getByTestId(id).locator('path.panel-line')).toHaveCount(2);
  }
  await page.screenshot({ path: `${screens}r5-budget-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${screens}r5-budget-390.png`, fullPage: true });
});

test('an R5 preset opened in the link lab (share link or file): the node explained, its experiments linked, its figures after a run', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('./#preset=r5-violations-heap');
  const note = page.getByTestId('np-note');
  await expect(note).toContainText('200 streams in 1 group');
  await expect(note.getByRole('link', { name: /window violations vs U/ })).toHaveAttribute('href', '#view=r5');
  await expect(runButton(page)).toBeEnabled();
  await runButton(page).click();
  await expect(page.getByTestId('run-status')).toHaveText('Done', { timeout: 60_000 });
  await expect(page.getByTestId('np-groups-table').getByRole('row')).toHaveCount(3);
  await expect(page.getByTestId('np-cost')).toContainText('cycles per scheduled packet at 232 MHz');
  await page.getByTestId('np-results').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${screens}r5-lab.png`, fullPage: true });
  // The same node opened from a file: the note follows the file (HILQ's budget preset).
  const text = readFileSync(`${root}public/presets/r5-budget-hilq.json`, 'utf8');
  await page.getByLabel('Open scenario file…').setInputFiles({ name: 'r5-budget-hilq.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(note).toContainText('4,000 streams in 1 group');
  await expect(note).toContainText('DWCS with HILQ');
  await note.getByRole('link', { name: /window violations vs U/ }).click();
  await expect(view(page)).toBeVisible();
});
