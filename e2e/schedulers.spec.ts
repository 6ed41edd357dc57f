// Every scheduler kind the web registers, as the engine sees it: switching the link lab's
// scheduler (and the network's two schedulers) to each kind gives a configuration that the
// engine's validation accepts, with the default classes and with a class added. The
// starting configuration of a kind is the engine's answer (the wasm call
// `starting_scheduler`): the switch waits for it. The share table under the scheduler is
// the engine's too (the wasm call `scheduler_weights`): editing a Pareto class's shape
// moves it to the engine's value.
import { expect, test, type Page } from '@playwright/test';
import { deflateSync } from 'fflate';
import { WEIGHTS_CASES } from '../web/src/generated/mathsCases';
import { defaultScenario, openApp, runButton, screens } from './helpers';

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
  // The share table shows once the engine has answered for the AS table (no DTable shares meanwhile).
  const shares = page.getByRole('table', { name: 'Bandwidth share per class' });
  await expect(shares).toHaveAttribute('aria-busy', 'false');
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

test('editing an AS basic class’s Pareto shape moves the share table to the engine’s value', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // The engine's answers (generated from its `scheduler_weights`) for an AS basic table over
  // a bounded Pareto class of shape 1.2 and of shape 2.5, a uniform and a fixed class.
  const [before, after] = [WEIGHTS_CASES[0], WEIGHTS_CASES[1]];
  if (!before || !after) throw new Error('fixtures');
  const percents = (shares: number[] | null) => (shares ?? []).map((x) => `${(x * 100).toFixed(1)} %`);
  const [was, becomes] = [percents(before.answer.shares), percents(after.answer.shares)];
  expect(was).toHaveLength(3);
  expect(was[0]).not.toBe(becomes[0]);
  const scenario = await defaultScenario();
  const json = JSON.stringify({ ...scenario, model: { ...scenario.model, ...before.request } });
  await openApp(page, `#v=1&s=${Buffer.from(deflateSync(new TextEncoder().encode(json), { level: 9 })).toString('base64url')}`);
  const table = page.getByRole('table', { name: 'Bandwidth share per class' });
  const cells = table.locator('tbody .share-cell');
  await expect(cells).toHaveText(was);
  await expect(page.getByTestId('share-0')).toContainText(was[0] ?? '');
  await expect(page.getByTestId('error-summary')).toHaveText('');

  const shape = page.getByLabel('Shape (tail index)');
  await shape.fill('2.5');
  await expect(cells).toHaveText(becomes);
  await expect(table).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('share-0')).toContainText(becomes[0] ?? '');
  await table.screenshot({ path: `${screens}shares-pareto-390.png` });
  // An unreadable shape: the engine refuses and the table says why instead of crashing.
  await shape.fill('');
  await expect(page.getByTestId('shares-unavailable')).toContainText('classes[0].traffic.size.shape');
  await page.getByTestId('shares-unavailable').screenshot({ path: `${screens}shares-unavailable-390.png` });
  await shape.fill('1.2');
  await expect(cells).toHaveText(was);
});
