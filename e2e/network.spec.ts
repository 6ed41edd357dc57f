// The network editor end to end: a small torus built in the browser from the starter
// network, and a bad value shown next to its field (the engine's validation, placed by
// field path).
import { expect, test, type Page } from '@playwright/test';
import { openApp, runButton } from './helpers';

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

test('a bad value shows its error next to its field; the summary takes the keyboard there', async ({ page }) => {
  await openSmallTorus(page);
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
});
