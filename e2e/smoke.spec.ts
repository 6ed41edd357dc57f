import { expect, test } from '@playwright/test';

test('engine runs in a worker and reports done', async ({ page }) => {
  await page.goto('./');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByTestId('outcome')).toHaveText('done');
});
