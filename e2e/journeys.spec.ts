// Journeys a new user tripped over (issue 15): each test failed before its fix.
import { expect, test, type Page } from '@playwright/test';
import { openApp, runButton, screens } from './helpers';

async function openDesigner(page: Page): Promise<void> {
  await page.goto('./#view=design');
  await expect(page.getByTestId('design-view')).toBeVisible();
}

async function importLines(page: Page, lines: string): Promise<void> {
  await page.getByLabel('Import: paste OpenSM lines, an opafm.xml or design JSON').fill(lines);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
}

test('a preset that does not exist is named as such (not a JSON syntax error)', async ({ page }) => {
  await page.goto('./#preset=does-not-exist');
  const alert = page.getByRole('alert').filter({ hasText: 'does-not-exist' });
  await expect(alert).toContainText('There is no preset “does-not-exist”');
  await expect(alert).toContainText('not found');
  await expect(alert).not.toContainText(/syntax/i);
});

test('no request of a page load fails (the favicon exists)', async ({ page }) => {
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  await openApp(page);
  await expect(page.getByTestId('engine-version')).not.toHaveText('engine loading…');
  expect(failed).toEqual([]);
  const icon = await page.evaluate(() => (document.querySelector('link[rel="icon"]') as HTMLLinkElement | null)?.href ?? '');
  expect(icon).toMatch(/favicon\.svg$/);
  expect((await page.request.get(icon)).status()).toBe(200);
});

test('running by keyboard keeps the focus on the controls', async ({ page }) => {
  await openApp(page);
  // A disabled button takes no focus: wait until the engine is loaded and Run is enabled.
  await expect(runButton(page)).toBeEnabled();
  await runButton(page).focus();
  await expect(runButton(page)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });
  // Focus went to Cancel while Run was disabled, and came back to Run at the end.
  await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? 'body')).toBe('Run');
  // So Enter runs again without reaching for the mouse.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });
});

test('a cut-off study link warns that defaults replace what it lost', async ({ page }) => {
  await page.goto('./#view=r2&loads=0.8,0.9,1&se');
  const view = page.getByRole('main', { name: 'Multimedia network (R2)' });
  await expect(view.getByRole('alert')).toContainText('The link looks cut off or edited (it has “se”): it does not say seeds, seed, us');
  await expect(view.getByLabel('Seeds per point')).toHaveValue('10');
  // The whole link does not warn.
  await page.goto('./#view=r2&loads=0.8,0.9,1&seeds=2&seed=&us=1000');
  await page.reload();
  await expect(page.getByRole('main', { name: 'Multimedia network (R2)' }).getByLabel('Seeds per point')).toHaveValue('2');
  await expect(page.getByRole('main', { name: 'Multimedia network (R2)' }).getByRole('alert')).toHaveCount(0);
});

test('an OpenSM import says what became of high_limit and sl2vl, and does not claim “Designed”', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await openDesigner(page);
  await page.getByLabel('Technology', { exact: true }).selectOption('infiniband');
  await page.getByRole('button', { name: 'Auto-design' }).click();
  await expect(page.getByTestId('design-status')).toContainText('Designed: ');
  await importLines(page, 'qos_high_limit 10\nqos_sl2vl 1,0,2,3,4,5,6,7,0,0,0,0,0,0,0,0\nqos_vlarb_low 0:32,1:32,2:64,3:64,4:16,5:16,6:16');
  const result = page.getByTestId('design-import-result');
  // Both are kept as fabric settings; the engine names the SL whose class lost its VL.
  await expect(result).toContainText('Kept qos_ settings: 0 high-table entries, high limit 10, sl2vl 1,0,2,3,4,5,6,7,0,0,0,0,0,0,0,0.');
  await expect(page.getByRole('region', { name: 'Fabric manager settings' }).getByRole('alert')).toContainText('fabric.sl2vl[0]: SL 0 carries class NC');
  await expect(page.getByTestId('design-status')).toContainText('Imported a table of 7 entries (not designed: Auto-design replaces it).');
  await expect(page.getByTestId('design-status')).not.toContainText('Designed');
});

test('“Simulate this table” with a partial imported InfiniBand table simulates what was designed', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await openDesigner(page);
  await page.getByLabel('Technology', { exact: true }).selectOption('infiniband');
  // The engine's check of the new requirements (its panel above Import) lands before the import, as for a reader.
  await expect(page.getByTestId('design-mappings')).toBeVisible();
  await importLines(page, 'qos_vlarb_low 0:32,1:32,2:64,3:64');
  await expect(page.getByTestId('design-import-result')).toContainText('(4 entries)');
  await expect(page.getByTestId('design-simulate-note')).toHaveText('Simulates the classes the table serves; EE, BE, BK have no entry and are left out.');
  await page.getByRole('button', { name: 'Simulate this table' }).click();
  await expect(page.getByLabel('Name', { exact: true }).first()).toHaveValue('Designed InfiniBand table (4 entries)');
  await expect(page.getByLabel('Scheduler kind', { exact: true })).toHaveValue('iba');
  await expect(page.getByText(/invalid/i)).toHaveCount(0);
  await expect(runButton(page)).toBeEnabled();
});

test('“Simulate this table” runs an imported InfiniBand high table and its limit, and the evaluation says its bounds leave them out', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await openDesigner(page);
  await page.getByLabel('Technology', { exact: true }).selectOption('infiniband');
  await page.getByRole('button', { name: 'Auto-design' }).click();
  await expect(page.getByTestId('design-status')).toContainText('Designed: ');
  await importLines(page, 'qos_high_limit 6\nqos_vlarb_high 0:4\nqos_vlarb_low 0:32,1:32,2:64,3:64,4:16,5:16,6:16');
  await expect(page.getByTestId('design-import-result')).toContainText('Kept qos_ settings: 1 high-table entries, high limit 6');
  await expect(page.getByTestId('design-high-note')).toContainText('the high-priority entry of the fabric settings is served first');
  await page.getByRole('button', { name: 'Simulate this table' }).click();
  await expect(page.getByLabel('Scheduler kind', { exact: true })).toHaveValue('iba');
  // The high table and its limit are the imported ones.
  await expect(page.getByLabel('High limit (4096-byte units)')).toHaveValue('6');
  await expect(page.getByLabel('High entry 0 weight', { exact: true })).toHaveValue('4');
  await expect(page.getByLabel('High entry 0 class', { exact: true })).toHaveValue('0');
  await expect(runButton(page)).toBeEnabled();
});

test('the designer fits a 390 px screen (no sideways scrolling)', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openDesigner(page);
  await page.getByRole('button', { name: 'Auto-design' }).click();
  await expect(page.getByTestId('design-status')).toContainText('Designed: ');
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // Every button is on screen.
  const outside = await page.evaluate(() =>
    [...document.querySelectorAll('button')].filter((b) => b.getBoundingClientRect().right > window.innerWidth + 0.5).map((b) => b.textContent),
  );
  expect(outside).toEqual([]);
  await page.screenshot({ path: `${screens}design-390.png`, fullPage: true });
});
