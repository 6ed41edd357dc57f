// Shared helpers of the browser tests.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';

/** The repository root. */
export const root = fileURLToPath(new URL('..', import.meta.url));

/** The native CLI built by `npm run build` (honours CARGO_TARGET_DIR). */
export const cliPath = `${process.env.CARGO_TARGET_DIR ?? `${root}engine/target`}/release/qoslab`;

/** Where screenshots go (not committed). */
export const screens = `${root}test-results/screens/`;

/** The default scenario, as the app bundles it. */
export async function defaultScenario(): Promise<{
  name: string;
  model: { classes: { name: string }[]; scheduler: { table: { class: number; weight: number }[] } };
}> {
  return JSON.parse(await readFile(`${root}public/presets/default.json`, 'utf8'));
}

/** Opens the app (optionally at a hash) and waits until the editor shows a scenario. */
export async function openApp(page: Page, hash = ''): Promise<void> {
  await page.goto(`./${hash}`);
  await expect(page.getByLabel('Name', { exact: true }).first()).toBeVisible();
}

/** The Run button. */
export const runButton = (page: Page) => page.getByRole('button', { name: 'Run', exact: true });

/** Runs the scenario shown and waits for the end. */
export async function runToEnd(page: Page): Promise<void> {
  await expect(runButton(page)).toBeEnabled();
  await runButton(page).click();
  await expect(page.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });
}

/** Downloads the results JSON of the last run; returns its text. */
export async function downloadResults(page: Page): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download results (JSON)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('qoslab-results.json');
  const path = await download.path();
  return readFile(path, 'utf8');
}

/** The weight input of table entry `j`. */
export const weightInput = (page: Page, j: number) => page.getByLabel(`Entry ${j} weight`, { exact: true });

/** The class select of table entry `j`. */
export const classSelect = (page: Page, j: number) => page.getByLabel(`Entry ${j} class`, { exact: true });

/** The table as [class, weight] pairs read from the editor. */
export async function readTable(page: Page, entries: number): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (let j = 0; j < entries; j++) {
    out.push([await classSelect(page, j).inputValue(), await weightInput(page, j).inputValue()]);
  }
  return out;
}

/**
 * Waits until the page no longer scrolls sideways. Polls, because charts re-measure their
 * width after a viewport change (a ResizeObserver callback), so the first frame after
 * `setViewportSize` may still hold the wider layout; a page that keeps overflowing fails.
 */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
    .toBeLessThanOrEqual(0);
}
