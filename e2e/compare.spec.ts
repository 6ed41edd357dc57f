// Scheduler editors, presets and the run comparison, in Chromium against the built site.
import { expect, test, type Page } from '@playwright/test';
import { classSelect, openApp, readTable, runToEnd, screens } from './helpers';

const comparison = (page: Page) => page.getByRole('region', { name: 'Comparison' });

test('opens the R1 DTable preset from the address and compares the three R1 schedulers', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page, '#preset=r1-dtable');
  await expect(page.getByLabel('Preset', { exact: true })).toHaveValue('r1-dtable');
  await expect(page.getByLabel('Scheduler kind')).toHaveValue('dtable');
  // Unchanged, the preset stays in the address, so a reload keeps it and its group.
  await page.waitForTimeout(400);
  expect(new URL(page.url()).hash).toBe('#preset=r1-dtable');
  await page.reload();
  await expect(page.getByLabel('Preset', { exact: true })).toHaveValue('r1-dtable');

  await comparison(page).getByRole('button', { name: 'Compare the R1 schedulers' }).click();
  await expect(comparison(page).getByTestId('compare-status')).toHaveText('Compared 3 runs.', { timeout: 120_000 });

  const legend = comparison(page).getByTestId('compare-legend');
  await expect(legend.getByTestId('compare-legend-run')).toHaveCount(3);
  // Every (run, class) is listed; classes the AS table starves have no delivered packet
  // from the measurement window (their queues only grow), so they are listed as
  // "(no packets)" and draw no curve.
  const curves = comparison(page).locator('path.cdf-curve');
  const starved = await comparison(page).locator('svg text', { hasText: '(no packets)' }).count();
  expect(starved).toBeLessThanOrEqual(2);
  await expect(curves).toHaveCount(12 - starved);
  const drawn = 12 - starved;
  for (let i = 0; i < drawn; i++) expect((await curves.nth(i).getAttribute('d')) ?? '').toMatch(/^M[\d.,\-eLHV ]+/);
  // Three line styles (solid + two dashes), four class colours.
  const dashes = new Set<string>();
  const colours = new Set<string>();
  for (let i = 0; i < drawn; i++) {
    dashes.add((await curves.nth(i).getAttribute('stroke-dasharray')) ?? 'solid');
    colours.add((await curves.nth(i).getAttribute('stroke')) ?? '');
  }
  expect(dashes.size).toBe(3);
  expect(colours.size).toBe(4);
  await expect(comparison(page).getByTestId('compare-table').locator('tbody tr')).toHaveCount(12);
  await expect(comparison(page).locator('rect.tp-bar')).toHaveCount(12);

  await comparison(page).scrollIntoViewIfNeeded();
  await comparison(page).screenshot({ path: `${screens}compare-r1.png` });

  // Rename, remove one run, clear.
  await comparison(page).getByLabel('Label of run 1').fill('First');
  await expect(legend.getByTestId('compare-legend-run').first()).toHaveText('First');
  await comparison(page).getByRole('button', { name: /^Remove run / }).nth(1).click();
  await expect(legend.getByTestId('compare-legend-run')).toHaveCount(2);
  // The IBA run is gone; the AS run (with its starved classes) and the DTable run remain.
  await expect(comparison(page).locator('path.cdf-curve')).toHaveCount(8 - starved);
  await comparison(page).getByRole('button', { name: 'Clear comparison' }).click();
  await expect(comparison(page).getByTestId('compare-legend')).toHaveCount(0);
});

test('"Add to comparison" pins the current run with scenario name and scheduler kind', async ({ page }) => {
  await openApp(page, '#preset=r1-dtable');
  await expect(comparison(page).getByRole('button', { name: 'Add to comparison' })).toBeDisabled();
  await runToEnd(page);
  await comparison(page).getByRole('button', { name: 'Add to comparison' }).click();
  const name = await page.getByLabel('Name', { exact: true }).first().inputValue();
  await expect(comparison(page).getByLabel('Label of run 1')).toHaveValue(`${name} · DTable`);
  await expect(comparison(page).getByTestId('compare-table').locator('tbody tr')).toHaveCount(4);
});

test('scheduler editors: every kind, conversion, engine validation next to the field, keyboard', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await openApp(page);
  const kind = page.getByLabel('Scheduler kind');
  const editor = page.getByRole('group', { name: 'Scheduler' });

  // DRR: one quantum per class, shares kept.
  await kind.selectOption('drr');
  await expect(page.getByLabel(/^Quantum of class 0/)).toBeVisible();
  await expect(editor.getByRole('table', { name: 'Bandwidth share per class' })).toContainText('13.3 %');
  await page.getByLabel(/^Quantum of class 1/).fill('0');
  const err = page.locator('[id="f-model.scheduler.quanta_bytes[1]-error"]');
  await expect(err).toContainText('must be between 1 and 16777216 bytes');
  await expect(page.getByLabel(/^Quantum of class 1/)).toHaveAttribute('aria-invalid', 'true');
  await editor.screenshot({ path: `${screens}editor-drr.png` });
  await page.getByLabel(/^Quantum of class 1/).fill('2048');

  // IBA: two tables and the high limit.
  await kind.selectOption('iba');
  await expect(page.getByLabel('High limit (4096-byte units)')).toHaveValue('255');
  await expect(page.getByText('255 = unbounded')).toBeVisible();
  await expect(page.getByLabel('Low entry 0 weight')).toBeVisible();
  await page.getByRole('button', { name: 'Add high entry' }).click();
  await expect(page.getByLabel('High entry 0 weight')).toBeFocused();
  await page.getByLabel('High entry 0 weight').fill('300');
  await expect(page.locator('[id="f-model.scheduler.high[0].weight-error"]')).toContainText('between 0 and 255');
  await editor.screenshot({ path: `${screens}editor-iba.png` });
  await page.getByLabel('High entry 0 weight').fill('10');

  // AS basic: a table of a legal size with a class per entry.
  await kind.selectOption('as_basic');
  await expect(page.getByLabel('Table size (entries)')).toHaveValue('32');
  await expect(page.getByRole('group', { name: 'AS table entries' }).locator('select')).toHaveCount(32);
  await page.getByLabel('Table size (entries)').selectOption('64');
  await expect(page.getByRole('group', { name: 'AS table entries' }).locator('select')).toHaveCount(64);
  // The engine's shares of the 64-entry table, not those of the kind before.
  const shares = editor.getByRole('table', { name: 'Bandwidth share per class' });
  await expect(shares).toHaveAttribute('aria-busy', 'false');
  await expect(shares.locator('caption')).toContainText('mean packet size');
  await editor.screenshot({ path: `${screens}editor-as-basic.png` });

  // Fair queueing, priority, EDF, FIFO.
  await kind.selectOption('wf2q_plus');
  await expect(page.getByLabel(/^Weight of class 3/)).toBeVisible();
  await kind.selectOption('strict_priority');
  await expect(page.getByLabel(/^Priority of class 0/)).toHaveValue('3');
  await kind.selectOption('edf');
  await expect(page.getByLabel(/^Deadline of class 0/)).toBeVisible();
  await kind.selectOption('fifo');
  await expect(editor.getByTestId('no-shares')).toBeVisible();
  await editor.screenshot({ path: `${screens}editor-fifo.png` });

  // Back to DTable: the original table returns; keyboard reaches the kind selector.
  await kind.focus();
  await kind.selectOption('dtable');
  await expect(page.getByLabel('Entry 0 weight')).toHaveValue('16');
  await expect(page.getByTestId('share-0')).toContainText('13.3 %');
  await editor.screenshot({ path: `${screens}editor-dtable.png` });
});

test('on/off and bursty sources are edited in the class editor and run', async ({ page }) => {
  await openApp(page);
  const field = (path: string) => page.locator(`[id="f-${path}"]`);
  await field('model.classes[0].traffic.arrivals').selectOption('on_off');
  await expect(field('model.classes[0].traffic.arrivals.mean_on_us')).toHaveValue('100');
  await field('model.classes[0].traffic.arrivals.mean_off_us').fill('100');
  await field('model.classes[1].traffic.arrivals').selectOption('bursts');
  await field('model.classes[1].traffic.arrivals.packets').fill('0');
  // The engine's rule appears next to the field and blocks the run.
  await expect(page.getByText('must be between 1 and 100000 packets per burst (got 0)').first()).toBeVisible();
  await field('model.classes[1].traffic.arrivals.packets').fill('8');
  await runToEnd(page);
  await expect(page.getByTestId('results-table')).toBeVisible();
});

test('"Fill the table from weights" asks the engine for a service list', async ({ page }) => {
  await openApp(page);
  await page.getByText('Fill the table from weights').click();
  for (const [i, n] of [3, 2, 1, 1].entries()) await page.getByLabel(`Entries of class ${i} `).fill(String(n));
  await page.getByLabel('Weight of every entry (credits)').fill('40');
  await page.getByLabel('Interleaving').selectOption('simple');
  await page.getByRole('button', { name: 'Fill the table', exact: true }).click();
  await expect(page.getByText('Filled 7 entries.')).toBeVisible();
  // Simply interleaved [3, 2, 1, 1]: bin 1 = 0 1 2 3, bin 2 = 0 1, bin 3 = 0.
  await expect(classSelect(page, 6)).toBeVisible();
  expect(await readTable(page, 7)).toEqual([0, 1, 2, 3, 0, 1, 0].map((c) => [String(c), '40']));
  await expect(classSelect(page, 7)).toHaveCount(0);
  await runToEnd(page);
});
