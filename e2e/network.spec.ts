// The network editor end to end: a small torus built in the browser from the starter
// network, run in the worker with results per class (service level), and a bad value
// shown next to its field (the engine's validation, placed by field path).
import { expect, test, type Page } from '@playwright/test';
import { expectNoSidewaysScroll, openApp, runButton, runToEnd, screens } from './helpers';

const editor = (page: Page) => page.getByTestId('network-editor');

/** Opens the starter network and turns it into a 2x2 torus, 2 end points per switch. */
async function openSmallTorus(page: Page): Promise<void> {
  await openApp(page);
  await page.getByRole('button', { name: 'New network' }).click();
  await expect(editor(page)).toBeVisible();
  await editor(page).getByRole('region', { name: 'General' }).getByLabel('Name').fill('Small torus');
  await editor(page).getByLabel('Topology', { exact: true }).selectOption('torus');
  await editor(page).getByLabel('Ring size, dimension 1').fill('2');
  await editor(page).getByLabel('Ring size, dimension 2').fill('2');
  await editor(page).getByLabel('End points per switch').fill('2');
  await expect(editor(page).getByTestId('topology-text')).toHaveText(
    '2x2 torus, trunks of 1 port, 2 end points per switch: 4 switches, 8 end points',
  );
}

/** The small torus, routed by dimension order. */
async function buildSmallTorus(page: Page): Promise<void> {
  await openSmallTorus(page);
  // The engine says which routings fit a torus; pick the one it accepts.
  await expect(editor(page).getByTestId('routing-hint')).toHaveText(/The engine accepts .*Dimension order/);
  await editor(page).getByLabel('Routing', { exact: true }).selectOption('dimension_order');
}

test('build a small torus in the browser, run it, see results per class (SL)', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await buildSmallTorus(page);
  await expect(page.getByTestId('error-summary')).toBeEmpty();
  await expect(page.getByTestId('work-estimate')).toHaveText(/^Estimated work: about [\d,  ]+ packets/);
  await runToEnd(page);
  const results = page.getByRole('region', { name: 'Results' });
  await expect(results).toContainText('Scenario “Small torus”');
  const rows = results.getByTestId('results-table').locator('tbody tr');
  await expect(rows).toHaveCount(2);
  for (const [i, name] of ['QoS', 'BE'].entries()) {
    await expect(rows.nth(i).getByRole('rowheader')).toHaveText(name);
    // Packets delivered in the measurement window: a number above zero.
    const packets = Number(((await rows.nth(i).locator('td').nth(2).textContent()) ?? '').replace(/\D/g, ''));
    expect(packets).toBeGreaterThan(0);
  }
  await page.screenshot({ path: `${screens}network-editor-1440.png`, fullPage: true });
});

test('a bad value shows its error next to its field; Run waits until it is fixed', async ({ page }) => {
  await buildSmallTorus(page);
  await expect(runButton(page)).toBeEnabled();
  const trunk = editor(page).getByLabel('Trunk ports');
  await trunk.fill('0');
  const field = editor(page).locator('.field').filter({ has: page.getByLabel('Trunk ports') });
  await expect(field.locator('.field-error')).toHaveText(/must be at least 1 port per trunk/);
  await expect(trunk).toHaveAttribute('aria-invalid', 'true');
  await expect(runButton(page)).toBeDisabled();
  // The summary names the field in words and takes the keyboard there.
  const summary = page.getByTestId('error-summary');
  await summary.getByRole('button', { name: 'Topology › trunk ports' }).press('Enter');
  await expect(trunk).toBeFocused();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('1');
  await expect(field.locator('.field-error')).toHaveCount(0);
  await expect(trunk).not.toHaveAttribute('aria-invalid', 'true');
  await expect(runButton(page)).toBeEnabled();
});

test('the network editor and its results fit a 390 px wide screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await buildSmallTorus(page);
  await runToEnd(page);
  await expectNoSidewaysScroll(page);
  await page.getByRole('region', { name: 'Topology and routing' }).screenshot({ path: `${screens}network-topology-390.png` });
  await page.getByRole('region', { name: 'Results' }).screenshot({ path: `${screens}network-results-390.png` });
  await page.screenshot({ path: `${screens}network-editor-390.png`, fullPage: true });
});

test('lanes: both classes on one VL with shared credits; a reserve below a packet is named next to its field; the run keeps results per SL', async ({ page }) => {
  await buildSmallTorus(page);
  const lanes = page.getByRole('region', { name: 'Lanes' });
  await lanes.getByLabel('Lane map').selectOption('sl2vl');
  await lanes.getByLabel('VL of BE (SL 1)').fill('0');
  await lanes.getByLabel('Credits of a switch input buffer').selectOption('shared');
  const reserve = lanes.getByLabel('Reserved per lane (B)');
  await reserve.fill('64');
  const field = lanes.locator('.field').filter({ has: page.getByLabel('Reserved per lane (B)') });
  await expect(field.locator('.field-error')).toHaveText(/must reserve at least the largest packet \(2048 B\)/);
  await expect(runButton(page)).toBeDisabled();
  await reserve.fill('2048');
  await expect(field.locator('.field-error')).toHaveCount(0);
  await runToEnd(page);
  const rows = page.getByRole('region', { name: 'Results' }).getByTestId('results-table').locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1).getByRole('rowheader')).toHaveText('BE');
  await lanes.screenshot({ path: `${screens}network-lanes-1440.png` });
});

test('the InfiniBand-like switch: chosen in the switch select, a stage latency out of range named next to its field, the run keeps results per SL', async ({ page }) => {
  await buildSmallTorus(page);
  const sw = editor(page);
  await sw.getByLabel('Switch model', { exact: true }).selectOption('infiniband');
  await expect(sw.getByLabel('Input buffer per port, shared by its VLs (B)')).toHaveValue('114688');
  const routing = sw.getByLabel('Routing unit (cycles)');
  await routing.fill('5000');
  const field = sw.locator('.field').filter({ has: page.getByLabel('Routing unit (cycles)') });
  await expect(field.locator('.field-error')).toHaveText(/must be at most 1000 cycles/);
  await expect(runButton(page)).toBeDisabled();
  await routing.fill('2');
  await expect(field.locator('.field-error')).toHaveCount(0);
  await runToEnd(page);
  const rows = page.getByRole('region', { name: 'Results' }).getByTestId('results-table').locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).getByRole('rowheader')).toHaveText('QoS');
});
