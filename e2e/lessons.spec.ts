// Lessons: the index in the header, every step of every lesson opened from it, one lesson
// followed to the end with its answers checked against runs in the browser (each check and
// the reduced sweep finish in under 60 s).
import { expect, test, type Page } from '@playwright/test';
import { screens } from './helpers';

const lessonView = (page: Page) => page.getByTestId('lesson');

async function openIndex(page: Page) {
  await page.goto('./');
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Lessons' }).click();
  await expect(page.getByRole('heading', { name: 'Lessons', level: 2 })).toBeVisible();
}

/** Picks `answer`, checks it against the run, and returns the verdict's text (within 60 s). */
async function check(page: Page, answer: string): Promise<string> {
  const q = page.getByTestId('lesson-question');
  await q.getByRole('radio', { name: answer, exact: true }).check();
  const started = Date.now();
  await q.getByRole('button', { name: 'Check against a run' }).click();
  const verdict = q.getByTestId('lesson-verdict');
  await expect(verdict).toBeVisible({ timeout: 60_000 });
  expect(Date.now() - started).toBeLessThan(60_000);
  return (await verdict.textContent()) ?? '';
}

test('every step of every lesson opens from the index', async ({ page }) => {
  await openIndex(page);
  const links = page.getByTestId('lesson-index').getByRole('link');
  await expect(links).toHaveText([
    'R1: why tables need deficits',
    'R2: latency and bandwidth decoupled',
    'R3: hierarchical vs flat switches',
    'R4: do we need 16 VCs?',
    'R5: constant-time scheduling on a network processor',
    'R6: fairness over two resources',
  ]);
  for (const [title, steps] of [
    ['R1: why tables need deficits', 4],
    ['R2: latency and bandwidth decoupled', 4],
    ['R3: hierarchical vs flat switches', 3],
    ['R4: do we need 16 VCs?', 3],
    ['R5: constant-time scheduling on a network processor', 4],
    ['R6: fairness over two resources', 5],
  ] as const) {
    await page.getByTestId('lesson-index').getByRole('link', { name: title }).click();
    await expect(lessonView(page).getByRole('heading', { level: 2 })).toHaveText(title);
    const nav = lessonView(page).getByRole('navigation', { name: 'Steps' }).getByRole('link');
    await expect(nav).toHaveCount(steps);
    for (let i = 0; i < steps; i++) {
      await nav.nth(i).click();
      await expect(lessonView(page).getByRole('heading', { level: 3 })).toHaveText(new RegExp(`^Step ${i + 1} of ${steps}: `));
      await expect(nav.nth(i)).toHaveAttribute('aria-current', 'step');
      // Each step links to a view with its scenario.
      await expect(lessonView(page).locator('a.lesson-open')).toHaveAttribute('href', /^#(preset=|view=)/);
    }
    await expect(lessonView(page).getByTestId('lesson-end')).toBeVisible();
    // Back to the index from the header (enabled inside a lesson).
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Lessons' }).click();
    await expect(page.getByTestId('lesson-index')).toBeVisible();
  }
});

test('the R1 lesson, followed to the end: its answers hold in the runs', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openIndex(page);
  await page.getByTestId('lesson-index').getByRole('link', { name: 'R1: why tables need deficits' }).click();
  // Step 1: the link opens the AS basic table in the lab; Back returns to the lesson.
  await lessonView(page).getByRole('link', { name: 'Open the AS basic table (R1) in the link lab' }).click();
  await expect(page.getByLabel('Name', { exact: true }).first()).toHaveValue(/AS basic/);
  await page.goBack();
  await expect(lessonView(page).getByRole('heading', { level: 3 })).toHaveText('Step 1 of 4: One packet per entry');
  expect(await check(page, '2048 B')).toMatch(/^Right: in the run \(.+ s\), 2048 B has the highest throughput\./);
  await page.screenshot({ path: `${screens}lesson-1440.png`, fullPage: true });
  await lessonView(page).getByRole('link', { name: 'Next step →' }).click();
  // Step 2: InfiniBand's byte weights: the check names the class that loses.
  expect(await check(page, '64 B')).toMatch(/^(Right|Not this time): in the run \(.+ s\), (64|256|1024|2048) B has the lowest throughput\./);
  await lessonView(page).getByRole('link', { name: 'Next step →' }).click();
  // Step 3: DTable gives the 64 B class its quarter.
  expect(await check(page, 'DTable')).toMatch(/^Right: .*DTable has the highest throughput for 64 B\./);
  await lessonView(page).getByRole('link', { name: 'Next step →' }).click();
  // Step 4: the animation, with its sentence per decision.
  await expect(lessonView(page).getByTestId('lesson-end')).toBeVisible();
  await lessonView(page).getByRole('link', { name: 'Animate DTable’s decisions (R1)' }).click();
  await expect(page.getByTestId('anim-why')).toContainText(/Why: Entry \d+ is the next entry whose class has a packet: it belongs to/, { timeout: 30_000 });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goBack();
  await expect(lessonView(page)).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${screens}lesson-390.png`, fullPage: true });
});

test('the R2 lesson’s checks and its reduced sweep each finish in under 60 s', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('./#view=lessons&lesson=r2-decoupling&step=2');
  expect(await check(page, 'VO')).toMatch(/^Right: in the run \(.+ s\), VO has the lowest mean latency\./);
  await lessonView(page).getByRole('link', { name: 'Next step →' }).click();
  expect(await check(page, 'DTable')).toMatch(/^Right: .*DTable has the lowest 99th percentile latency for VO\./);
  await lessonView(page).getByRole('link', { name: 'Next step →' }).click();
  await lessonView(page).getByRole('link', { name: 'Open the reduced R2 sweep' }).click();
  const view = page.getByRole('main', { name: 'Multimedia network (R2)' });
  await expect(view.getByTestId('r2-estimate')).toContainText('16 runs on');
  const started = Date.now();
  await view.getByRole('button', { name: 'Run R2 sweep' }).click();
  await expect(view.getByTestId('r2-status')).toContainText('Done: 16 runs', { timeout: 60_000 });
  expect(Date.now() - started).toBeLessThan(60_000);
});

test('the R4 lesson’s checks and its reduced sweep with the cost table each finish in under 60 s', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('./#view=lessons&lesson=r4-two-vcs&step=1');
  expect(await check(page, 'New 2 VCs-P')).toMatch(/^Right: .*New 2 VCs-P has the lowest mean latency for VO\./);
  await lessonView(page).getByRole('link', { name: 'Next step →' }).click();
  expect(await check(page, 'New 2 VCs-P')).toMatch(/^Right: .*New 2 VCs-P has the lowest mean latency for VO\./);
  await lessonView(page).getByRole('link', { name: 'Next step →' }).click();
  await lessonView(page).getByRole('link', { name: 'Open the reduced R4 sweep' }).click();
  const view = page.getByRole('main', { name: 'Full QoS with two VCs at the switches (R4)' });
  await expect(view.getByText('4 runs in all.')).toBeVisible();
  const started = Date.now();
  await view.getByRole('button', { name: 'Run R4 sweep' }).click();
  await expect(view.getByTestId('r4-status')).toContainText('Done: 4 runs', { timeout: 60_000 });
  expect(Date.now() - started).toBeLessThan(60_000);
  await expect(view.getByTestId('r4-cost').locator('tbody tr')).toHaveCount(4);
});
