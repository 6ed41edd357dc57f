// Every scheduler kind the web registers, as the engine sees it: switching the link lab's
// scheduler (and the network's two schedulers) to each kind gives a configuration that the
// engine's validation accepts, with the default classes and with a class added. The
// starting configuration of a kind is the engine's answer (the wasm call
// `starting_scheduler`): the switch waits for it.
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

/** Picks `kind` in the select labelled `label` and waits for the engine's starting configuration to land. */
async function switchKind(page: Page, label: string, kind: string, status: string) {
  const select = page.getByLabel(label, { exact: true });
  await select.selectOption(kind);
  await expect(page.getByTestId(status)).toHaveText('');
  await expect(select).toHaveValue(kind);
}

test('switching the link lab to AS basic shows the engine’s table, focus stays on the kind', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page);
  const select = page.getByLabel('Scheduler kind', { exact: true });
  await select.focus();
  await switchKind(page, 'Scheduler kind', 'as_basic', 'kind-switch-status');
  await expect(select).toBeFocused();
  // The engine's answer for the default classes (Voice 160 B, Video 512-2048 B, Bulk 2048 B,
  // Web Pareto 64-2048 B, DTable weights 32:80:64:64): entries in proportion to share /
  // mean packet size, apportioned to 32 and WF2Q-interleaved.
  const engine = [3, 0, 3, 1, 3, 0, 3, 0, 3, 2, 3, 0, 3, 0, 3, 1, 3, 3, 0, 3, 0, 3, 1, 3, 0, 3, 0, 3, 2, 3, 0, 3];
  const entries = page.getByRole('combobox', { name: /^AS entry \d+$/ });
  await expect(entries).toHaveCount(32);
  expect(await entries.evaluateAll((es) => es.map((e) => Number((e as HTMLSelectElement).value)))).toEqual(engine);
  const shares = page.getByRole('table', { name: 'Bandwidth share per class' });
  const counts = await shares.locator('tbody tr td:first-of-type').allTextContents();
  expect(counts.map(Number)).toEqual([10, 3, 2, 17]);
  // The keyboard reaches the next kind from where focus stayed.
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('kind-switch-status')).toHaveText('');
  await expect(select).toHaveValue('iba');
  await expect(page.getByRole('spinbutton', { name: /^Low entry \d+ weight$/ }).first()).toBeVisible();
});

test('the link lab: every kind converts to a configuration the engine accepts', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page);
  const all = await kinds(page, 'Scheduler kind');
  expect(all.length).toBeGreaterThanOrEqual(11);
  for (const kind of all) {
    await switchKind(page, 'Scheduler kind', kind, 'kind-switch-status');
    await expectAccepted(page, `${kind} with the default classes`);
  }
  // A class added under each kind keeps every per-class list and table in step.
  for (const kind of all) {
    await switchKind(page, 'Scheduler kind', kind, 'kind-switch-status');
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
    await switchKind(page, label, kind, 'switch_scheduler-switch-status');
    await switchKind(page, 'Network interfaces: scheduler', kind, 'interface_scheduler-switch-status');
    await expectAccepted(page, kind);
  }
});
