// Every scheduler kind the web registers, as the engine sees it: switching the link lab's
// scheduler (and the network's two schedulers) to each kind gives a configuration that the
// engine's validation accepts, with the default classes and with a class added.
import { expect, test, type Page } from '@playwright/test';
import { openApp, runButton } from './helpers';

async function kinds(page: Page, label: string): Promise<string[]> {
  return page.getByLabel(label, { exact: true }).locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
}

async function expectAccepted(page: Page, what: string) {
  // Polling the text, so a failure shows the engine's messages.
  await expect.poll(async () => (await page.getByTestId('error-summary').textContent()) ?? '', { message: what }).toBe('');
  await expect(runButton(page), what).toBeEnabled();
}

test('the link lab: every kind converts to a configuration the engine accepts', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page);
  const all = await kinds(page, 'Scheduler kind');
  expect(all.length).toBeGreaterThanOrEqual(11);
  for (const kind of all) {
    await page.getByLabel('Scheduler kind').selectOption(kind);
    await expectAccepted(page, `${kind} with the default classes`);
  }
  // A class added under each kind keeps every per-class list and table in step.
  for (const kind of all) {
    await page.getByLabel('Scheduler kind').selectOption(kind);
    await page.getByRole('button', { name: 'Add class' }).click();
    await expectAccepted(page, `${kind} with a class added`);
  }
});

test('the network: both schedulers convert to every kind the engine accepts', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page);
  await page.getByRole('button', { name: 'New network' }).click();
  const label = 'Switch output ports: scheduler';
  await expect(page.getByLabel(label, { exact: true })).toBeVisible();
  for (const kind of await kinds(page, label)) {
    await page.getByLabel(label, { exact: true }).selectOption(kind);
    await page.getByLabel('Network interfaces: scheduler', { exact: true }).selectOption(kind);
    await expectAccepted(page, kind);
  }
});
