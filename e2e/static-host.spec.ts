// `npm run build` makes a static site that works from any static host and sub-path:
// served by a plain file server under /some/deep/path/, the app loads its worker and
// WebAssembly through relative URLs and runs the default scenario.
import { expect, test } from '@playwright/test';
import { staticPort, staticPrefix } from './playwright.config';

test('the built site runs from a sub-path of a plain static server', async ({ page }) => {
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(`http://127.0.0.1:${staticPort}${staticPrefix}`);
  await expect(page.getByTestId('engine-version')).toHaveText(/^qoslab-core /);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });
  await expect(page.locator('path.cdf-curve')).toHaveCount(4);
  expect(failed).toEqual([]);
});
