// The Link lab end to end, in Debian's Chromium against the built site: run, plot,
// share links, CLI/browser identity, bad links, responsiveness, keyboard.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { deflateSync } from 'fflate';
import {
  classSelect,
  cliPath,
  defaultScenario,
  downloadResults,
  expectNoSidewaysScroll,
  openApp,
  readTable,
  root,
  runButton,
  runToEnd,
  screens,
  weightInput,
} from './helpers';

/** A share-link hash for arbitrary JSON text (as the app encodes it). */
function hashFor(json: string, version = '1'): string {
  const packed = Buffer.from(deflateSync(new TextEncoder().encode(json), { level: 9 })).toString('base64url');
  return `#v=${version}&s=${packed}`;
}

test('runs the default scenario: one CDF curve per class and the numbers table', async ({ page }) => {
  const scenario = await defaultScenario();
  const classes = scenario.model.classes;
  await openApp(page);
  await expect(page.getByTestId('engine-version')).toHaveText(/^qoslab-core \d+\.\d+\.\d+/);
  await expect(page.getByRole('group', { name: /^Class \d+/ })).toHaveCount(classes.length);

  await runToEnd(page);
  const curves = page.locator('path.cdf-curve');
  await expect(curves).toHaveCount(classes.length);
  for (let i = 0; i < classes.length; i++) {
    expect((await curves.nth(i).getAttribute('d')) ?? '').toMatch(/^M[\d.,\-eLHV ]+/);
  }
  const rows = page.getByTestId('results-table').locator('tbody tr');
  await expect(rows).toHaveCount(classes.length);
  for (let i = 0; i < classes.length; i++) {
    const cells = rows.nth(i).locator('th, td');
    await expect(cells).toHaveCount(8);
    await expect(cells.nth(0)).toHaveText(classes[i]!.name);
    await expect(cells.nth(2)).toHaveText(/^\d+\.\d\d %$/);
    await expect(cells.nth(3)).toHaveText(/^[\d,]+$/);
  }
  await expect(page.getByTestId('results-totals')).toContainText('Generated');
  await expect(page.getByTestId('stale-note')).toHaveCount(0);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `${screens}main-after-run.png`, fullPage: true });
  await page.screenshot({ path: `${screens}main-viewport.png` });

  // An edit after the run marks the results as belonging to the previous settings.
  await weightInput(page, 1).fill('48');
  await expect(page.getByTestId('stale-note')).toHaveText('Results are for the previous settings — run again.');
});

test('a share link reproduces the edited table and the same numbers', async ({ page, context }) => {
  const scenario = await defaultScenario();
  const entries = scenario.model.scheduler.table.length;
  await openApp(page);
  const share = page.getByLabel('Share link');
  const before = await share.inputValue();
  await weightInput(page, 0).fill('24');
  await classSelect(page, 2).selectOption('2');
  await expect(share).not.toHaveValue(before);
  const link = await share.inputValue();
  expect(link).toMatch(/#v=1&s=[A-Za-z0-9_-]+$/);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByTestId('share-status')).toHaveText('Link copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  // The address bar follows (debounced).
  await expect.poll(() => page.url()).toBe(link);
  const table = await readTable(page, entries);
  expect(table[0]).toEqual(['0', '24']);
  await runToEnd(page);
  const first = await downloadResults(page);

  const other = await context.newPage();
  await other.goto(link);
  await expect(weightInput(other, 0)).toHaveValue('24');
  expect(await readTable(other, entries)).toEqual(table);
  await expect(other.getByRole('alert')).toHaveCount(0);
  await runToEnd(other);
  const second = await downloadResults(other);
  expect(second).toBe(first);
  // Not the default scenario's numbers: the edit reached the engine.
  const defaults = execFileSync(cliPath, ['run', `${root}public/presets/default.json`], {
    encoding: 'utf8',
  });
  expect(second.trimEnd()).not.toBe(defaults.trimEnd());
});

test('the CLI and the browser give byte-identical results for the default scenario', async ({ page }) => {
  const cli = execFileSync(cliPath, ['run', `${root}public/presets/default.json`], {
    encoding: 'utf8',
  });
  await openApp(page);
  await runToEnd(page);
  const browser = await downloadResults(page);
  expect(browser.replace(/\n$/, '')).toBe(cli.replace(/\n$/, ''));
});

test('damaged and invalid links show an error and load the default scenario', async ({ page }) => {
  const scenario = await defaultScenario();
  await openApp(page, '#v=1&s=garbage!!');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('damaged');
  await expect(alert).toContainText('The default scenario was loaded instead.');
  await expect(page.getByLabel('Name', { exact: true }).first()).toHaveValue(scenario.name);
  await expect(runButton(page)).toBeEnabled();
  await page.getByRole('button', { name: /^Dismiss/ }).click();
  await expect(alert).toHaveCount(0);

  // Decodes, but the scenario breaks a rule: the message names the field.
  const bad = structuredClone(scenario);
  bad.model.scheduler.table[3]!.weight = 0;
  await openApp(page, hashFor(JSON.stringify(bad)));
  await expect(page.getByRole('alert')).toContainText('model.scheduler.table[3].weight');
  await expect(page.getByRole('alert')).toContainText('invalid');
  await expect(weightInput(page, 3)).toHaveValue(String(scenario.model.scheduler.table[3]!.weight));

  // Not JSON, and a link version from the future.
  await openApp(page, hashFor('{"version": 1,'));
  await expect(page.getByRole('alert')).toContainText('not valid JSON');
  await openApp(page, hashFor(JSON.stringify(scenario), '7'));
  await expect(page.getByRole('alert')).toContainText('link version "7"');
  await expect(page.getByLabel('Name', { exact: true }).first()).toHaveValue(scenario.name);
});

test('invalid edits are shown at the field and in the summary, and block Run', async ({ page }) => {
  await openApp(page);
  const weight = weightInput(page, 2);
  await weight.fill('0');
  await expect(weight).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('[id="f-model.scheduler.table[2].weight-error"]')).toContainText('between 1 and 65535');
  await expect(page.getByTestId('error-summary')).toContainText('model.scheduler.table[2].weight');
  await expect(runButton(page)).toBeDisabled();

  const load = page.getByRole('group', { name: /^Class 1\b/ }).getByLabel('Load (fraction of link)');
  await load.fill('');
  await expect(load).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('error-summary')).toContainText('must be a number');
  await page.screenshot({ path: `${screens}invalid-edits.png`, fullPage: true });
  await load.fill('0.3');
  await weight.fill('32');
  await expect(runButton(page)).toBeEnabled();
  await expect(page.getByTestId('error-summary')).toBeEmpty();

  // Removing a class removes its entries and renumbers the later ones.
  await page.getByRole('button', { name: /^Remove class 1\b/ }).click();
  await expect(page.getByRole('group', { name: /^Class \d+/ })).toHaveCount(3);
  expect(await readTable(page, 6)).toEqual([
    ['0', '16'],
    ['2', '32'],
    ['1', '32'],
    ['0', '16'],
    ['2', '32'],
    ['1', '32'],
  ]);
  await expect(weightInput(page, 6)).toHaveCount(0);
  await expect(runButton(page)).toBeEnabled();

  // Moving an entry keeps the keyboard focus on it; add and remove entries.
  await page.getByRole('button', { name: 'Move entry 0 down' }).click();
  await expect(page.getByRole('button', { name: 'Move entry 1 down' })).toBeFocused();
  expect((await readTable(page, 2))).toEqual([
    ['2', '32'],
    ['0', '16'],
  ]);
  await page.getByRole('button', { name: 'Add entry' }).click();
  await expect(weightInput(page, 6)).toBeFocused();
  await expect(weightInput(page, 6)).toHaveValue('32');
  await page.getByRole('button', { name: 'Remove entry 0' }).click();
  expect(await readTable(page, 6)).toEqual([
    ['0', '16'],
    ['1', '32'],
    ['0', '16'],
    ['2', '32'],
    ['1', '32'],
    ['1', '32'],
  ]);
});

test('opening a scenario file loads it, or names the bad field', async ({ page }) => {
  const scenario = await defaultScenario();
  await openApp(page);
  const edited = structuredClone(scenario);
  edited.name = 'From a file';
  await page.getByLabel('Open scenario file…').setInputFiles({
    name: 'good.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(edited)),
  });
  await expect(page.getByLabel('Name', { exact: true }).first()).toHaveValue('From a file');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download scenario (JSON)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('qoslab-scenario.json');
  expect(JSON.parse(await readFile(await download.path(), 'utf8'))).toEqual(edited);

  const broken = structuredClone(scenario);
  (broken.model.classes[0] as { name: string }).name = '';
  await page.getByLabel('Open scenario file…').setInputFiles({
    name: 'bad.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(broken)),
  });
  await expect(page.getByRole('alert')).toContainText('bad.json');
  await expect(page.getByRole('alert')).toContainText('model.classes[0].name');
  await expect(page.getByLabel('Name', { exact: true }).first()).toHaveValue('From a file');
});

test('a long run keeps the page responsive, shows progress and can be cancelled', async ({ page }) => {
  await openApp(page);
  await page.getByLabel('Duration (µs)').fill('20000000');
  await expect(runButton(page)).toBeEnabled();
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: number[] };
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longTasks.push(e.duration);
    }).observe({ type: 'longtask' });
  });
  await runButton(page).click();
  const progress = page.getByRole('progressbar', { name: 'Run progress' });
  const value = async () => Number(await progress.getAttribute('value'));
  await expect.poll(value).toBeGreaterThan(0.02);
  const early = await value();
  await expect.poll(value).toBeGreaterThan(early);
  await expect(page.getByTestId('run-events')).toHaveText(/[\d,]+ events/);

  // The main thread answers at once while the worker simulates.
  for (let k = 0; k < 5; k++) {
    const t0 = Date.now();
    await page.evaluate(() => document.title);
    expect(Date.now() - t0).toBeLessThan(200);
  }
  const name = page.getByLabel('Name', { exact: true }).first();
  await name.fill('Typed during the run');
  await expect(name).toHaveValue('Typed during the run');
  expect(await value()).toBeLessThan(1);

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('Cancelled');
  await expect(runButton(page)).toBeEnabled();
  expect(await value()).toBeLessThan(1);
  const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
  expect(Math.max(0, ...longTasks)).toBeLessThan(200);
});

test('keyboard: Tab reaches Run and Enter starts a run', async ({ page }) => {
  await openApp(page);
  // Disabled buttons are not in the tab order: wait until the scenario has been checked.
  await expect(runButton(page)).toBeEnabled();
  let focusedRun = false;
  for (let k = 0; k < 10 && !focusedRun; k++) {
    await page.keyboard.press('Tab');
    focusedRun = await runButton(page).evaluate((el) => el === document.activeElement);
  }
  expect(focusedRun).toBe(true);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });
  await expect(page.locator('path.cdf-curve')).toHaveCount((await defaultScenario()).model.classes.length);
});

test('narrow screens stack the editor above the results', async ({ page }) => {
  await page.setViewportSize({ width: 420, height: 900 });
  await openApp(page);
  await runToEnd(page);
  const editor = await page.getByRole('region', { name: 'Scenario' }).boundingBox();
  const results = await page.getByRole('region', { name: 'Results' }).boundingBox();
  expect(editor && results && results.y >= editor.y + editor.height - 1).toBe(true);
  // Nothing sticks out sideways: the page itself never scrolls horizontally.
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${screens}narrow.png`, fullPage: true });
  await page.locator('[id="f-model.scheduler.table"]').screenshot({ path: `${screens}narrow-table.png` });
  await page.getByRole('region', { name: 'Results' }).screenshot({ path: `${screens}narrow-results.png` });
});
