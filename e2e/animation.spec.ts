// The decision animation end to end: open it from the Link lab, download the trace the
// page got from the engine worker, step with the buttons and the keyboard and check what
// is shown (pointer, selected class, counters) against the trace's registers.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSidewaysScroll, openApp, screens } from './helpers';

interface Registers {
  entry?: number;
  table?: 'main' | 'high' | 'low';
  high_entry?: number;
  low_entry?: number;
  selected?: number;
  accumulated?: number;
  remaining_weight?: number;
  high_limit_used?: number;
  deficit?: number[];
  virtual_time?: number;
}

interface Trace {
  scheduler: string;
  classes: { name: string }[];
  table: { table: string; index: number; class: number; weight?: number }[];
  decisions: { step: number; class: number; bytes: number; credits: number; registers: Registers }[];
}

async function openAnimation(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Animate decisions' }).click();
  await expect(page.getByRole('heading', { name: 'Decision animation' })).toBeVisible();
  await expect(page.getByTestId('anim-player')).toBeVisible({ timeout: 30_000 });
}

async function downloadTrace(page: Page): Promise<Trace> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download trace (JSON)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('qoslab-trace.json');
  return JSON.parse(await readFile(await download.path(), 'utf8')) as Trace;
}

/** Checks that the page shows decision `k` of `trace`. */
async function expectStep(page: Page, trace: Trace, k: number): Promise<void> {
  const d = trace.decisions[k]!;
  const r = d.registers;
  await expect(page.getByTestId('anim-player')).toHaveAttribute('data-step', String(k));
  await expect(page.getByTestId('anim-step')).toHaveText(String(k + 1));
  await expect(page.getByTestId('anim-text')).toContainText(`step ${k + 1}: `);
  await expect(page.getByTestId('anim-text')).toContainText(`class ${trace.classes[d.class]!.name} sends ${d.bytes} B`);
  await expect(page.getByTestId('anim-sent')).toHaveAttribute('data-class', String(d.class));
  await expect(page.getByTestId('anim-leaving')).toHaveAttribute('data-class', String(d.class));
  await expect(page.getByTestId('anim-selected')).toHaveAttribute('data-class', r.selected === undefined ? '' : String(r.selected));
  if (r.high_entry !== undefined || r.low_entry !== undefined) {
    if (r.high_entry !== undefined) await expect(page.getByTestId('anim-pointer-high')).toHaveAttribute('data-entry', String(r.high_entry));
    if (r.low_entry !== undefined) await expect(page.getByTestId('anim-pointer-low')).toHaveAttribute('data-entry', String(r.low_entry));
  } else if (r.entry !== undefined) {
    await expect(page.getByTestId('anim-pointer-main')).toHaveAttribute('data-entry', String(r.entry));
    await expect(page.getByTestId('anim-counter-pointer-main')).toHaveAttribute('data-value', String(r.entry));
  }
  for (const id of ['accumulated', 'remaining_weight', 'high_limit_used', 'virtual_time'] as const) {
    const v = r[id];
    if (v !== undefined) await expect(page.getByTestId(`anim-counter-${id}`)).toHaveAttribute('data-value', String(v));
  }
  if (r.deficit) {
    for (let c = 0; c < r.deficit.length; c++) {
      await expect(page.getByTestId(`anim-deficit-${c}`)).toHaveAttribute('data-value', String(r.deficit[c]));
    }
  }
}

test('animates the default DTable scenario: buttons and keyboard follow the trace', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await openApp(page);
  await openAnimation(page);
  // The view is part of the address (debounced), after the scenario.
  await expect.poll(() => page.url()).toMatch(/#v=1&s=[A-Za-z0-9_-]+&view=animate$/);

  const trace = await downloadTrace(page);
  expect(trace.scheduler).toBe('dtable');
  expect(trace.decisions).toHaveLength(200);
  expect(trace.table).toHaveLength(8);
  await expect(page.locator('[data-testid=anim-table-main] .anim-entry')).toHaveCount(8);
  await expectStep(page, trace, 0);

  // Buttons.
  const forward = page.getByRole('button', { name: 'Step forward' });
  for (let k = 1; k <= 10; k++) {
    await forward.click();
    await expectStep(page, trace, k);
  }
  await page.screenshot({ path: `${screens}animation-step10.png`, fullPage: true });
  await page.getByRole('button', { name: 'Step back' }).click();
  await expectStep(page, trace, 9);

  // Keyboard on the player.
  await page.getByTestId('anim-player').focus();
  for (let k = 10; k <= 19; k++) {
    await page.keyboard.press('ArrowRight');
    await expectStep(page, trace, k);
  }
  await page.keyboard.press('ArrowLeft');
  await expectStep(page, trace, 18);
  await page.keyboard.press('End');
  await expectStep(page, trace, 199);
  await expect(page.getByRole('button', { name: 'Step forward' })).toBeDisabled();
  await page.keyboard.press('Home');
  await expectStep(page, trace, 0);
  await expect(page.getByRole('button', { name: 'First decision' })).toBeDisabled();
  // The live region announces the step in words.
  await expect(page.getByTestId('anim-live')).toContainText('step 1: ');

  // Space plays at the chosen speed and pauses.
  await page.getByLabel('Speed (decisions per second)').fill('20');
  await page.getByTestId('anim-player').focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect.poll(async () => Number(await page.getByTestId('anim-player').getAttribute('data-step'))).toBeGreaterThan(3);
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible();
  const paused = Number(await page.getByTestId('anim-player').getAttribute('data-step'));
  await expectStep(page, trace, paused);

  // The step slider.
  await page.getByRole('slider', { name: 'Step' }).fill('42');
  await expectStep(page, trace, 41);
  await page.screenshot({ path: `${screens}animation-desktop.png`, fullPage: true });

  // Narrow screen: nothing wider than the viewport.
  await page.setViewportSize({ width: 390, height: 900 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${screens}animation-narrow.png`, fullPage: true });

  await page.getByRole('button', { name: 'Back to the lab' }).click();
  await expect(page.getByRole('heading', { name: 'Scenario' })).toBeVisible();
  await expect.poll(() => page.url()).not.toContain('view=animate');
});

test('a link with view=animate opens the animation; a new request re-traces', async ({ page }) => {
  await openApp(page);
  await expect.poll(() => page.url()).toMatch(/#v=1&s=/);
  const link = `${page.url()}&view=animate`;
  await page.goto(link);
  await expect(page.getByTestId('anim-player')).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Decisions', { exact: true }).fill('25');
  await page.getByLabel('From (µs)').fill('500');
  await page.getByRole('button', { name: 'Trace decisions' }).click();
  await expect(page.getByTestId('anim-player')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('anim-player')).toContainText('of 25');
  const trace = await downloadTrace(page);
  expect(trace.decisions).toHaveLength(25);
  await page.getByTestId('anim-player').focus();
  await page.keyboard.press('End');
  await expectStep(page, trace, 24);

  // A bad setting is explained and blocks the request.
  await page.getByLabel('Decisions', { exact: true }).fill('0');
  await expect(page.getByText('Decisions must be a whole number from 1 to 10000.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Trace decisions' })).toBeDisabled();

  // The packet travels after a step (requestAnimationFrame), then rests at the end of the link.
  await page.getByTestId('anim-player').focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('anim-leaving')).toHaveAttribute('data-phase', '1.00');
  await page.screenshot({ path: `${screens}animation-reload.png`, fullPage: true });

  // Only the view in the hash: the default scenario, animated.
  await page.goto('./#view=animate');
  await expect(page.getByTestId('anim-player')).toBeVisible({ timeout: 30_000 });
});

test('honours prefers-reduced-motion: the packet does not travel', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('./#view=animate');
  await expect(page.getByTestId('anim-player')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Scenario' })).toHaveCount(0);
  for (let k = 1; k <= 3; k++) {
    await page.getByRole('button', { name: 'Step forward' }).click();
    // At once at the end of the link: no frame in between.
    expect(await page.getByTestId('anim-leaving').getAttribute('data-phase')).toBe('1.00');
  }
  await page.getByLabel('Speed (decisions per second)').fill('20');
  await page.getByRole('button', { name: 'Play' }).click();
  for (let i = 0; i < 5; i++) {
    expect(await page.getByTestId('anim-leaving').getAttribute('data-phase')).toBe('1.00');
    await page.waitForTimeout(30);
  }
  await expect.poll(async () => Number(await page.getByTestId('anim-player').getAttribute('data-step'))).toBeGreaterThan(5);
  await page.getByRole('button', { name: 'Pause' }).click();
});

test('a packet moving while playing (screenshot)', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openApp(page);
  await openAnimation(page);
  await page.getByLabel('Speed (decisions per second)').fill('0.5');
  await page.getByRole('button', { name: 'Play' }).click();
  await expect
    .poll(async () => Number(await page.getByTestId('anim-leaving').getAttribute('data-phase')))
    .toBeGreaterThan(0.3);
  const phase = Number(await page.getByTestId('anim-leaving').getAttribute('data-phase'));
  expect(phase).toBeLessThan(1);
  await page.screenshot({ path: `${screens}animation-playing.png` });
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByTestId('anim-leaving')).toHaveAttribute('data-phase', '1.00');
});

/** Every scheduler the animation is meant for: a preset, or the default with another kind. */
const KINDS: { kind: string; open: string; select?: string }[] = [
  { kind: 'as_basic', open: '#preset=r1-as-basic' },
  { kind: 'iba', open: '#preset=r1-iba-weighted' },
  { kind: 'drr', open: '', select: 'drr' },
  { kind: 'scfq', open: '', select: 'scfq' },
  { kind: 'wfq', open: '', select: 'wfq' },
];

for (const { kind, open, select } of KINDS) {
  test(`animates ${kind}: pointer, counters and tags follow the trace`, async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 1000 });
    await openApp(page, open);
    if (select) {
      const kindSelect = page.getByLabel('Scheduler kind');
      await kindSelect.selectOption(select);
      // The switch lands when the engine answers (the select is busy until then): the
      // animation traces the scheduler in force, so wait for the new kind to be it.
      await expect(kindSelect).toHaveAttribute('aria-busy', 'false');
      await expect(kindSelect).toHaveValue(select);
    }
    await openAnimation(page);
    const trace = (await downloadTrace(page)) as Trace & {
      decisions: { registers: Registers & { finish_tags?: (number | null)[]; start_tags?: (number | null)[] } }[];
    };
    expect(trace.scheduler).toBe(kind);
    await expectStep(page, trace, 0);
    await page.getByTestId('anim-player').focus();
    for (let k = 1; k <= 10; k++) {
      await page.keyboard.press('ArrowRight');
      await expectStep(page, trace, k);
      const r = trace.decisions[k]!.registers;
      for (const [tags, id] of [
        [r.finish_tags, 'finish'],
        [r.start_tags, 'start'],
      ] as const) {
        if (!tags) continue;
        for (let c = 0; c < tags.length; c++) {
          const cell = page.getByTestId(`anim-${id}-${c}`);
          if (tags[c] === null) await expect(cell).toHaveText('—');
          else await expect(cell).not.toHaveText('—');
        }
      }
    }
    if (kind === 'iba') {
      // The R1 preset uses the low table only (its high table is empty).
      await expect(page.getByTestId('anim-table-low')).toBeVisible();
      expect(trace.table.every((e) => e.table === 'low')).toBe(true);
      await expect(page.getByTestId('anim-counter-remaining_weight')).toBeVisible();
    }
    await page.screenshot({ path: `${screens}animation-${kind}.png`, fullPage: true });
  });
}

test('every decision says why in a sentence, next to a glossary of the registers', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./#preset=r1-dtable&view=animate');
  const why = page.getByTestId('anim-why');
  await expect(why).toContainText('Why: ', { timeout: 30_000 });
  await page.getByTestId('anim-player').focus();
  const seen: string[] = [];
  for (let k = 0; k < 8; k++) {
    const text = (await why.textContent()) ?? '';
    const sender = /class (.+?) sends/.exec((await page.getByTestId('anim-text').textContent()) ?? '')?.[1];
    // One sentence naming the class that sent, with DTable's arithmetic: deficit + weight, or what is still accumulated.
    expect(text).toMatch(/^Why: Entry \d+ (is the next entry whose class has a packet: it belongs to .+\. .+ deficit \d+ \+ the entry’s weight \d+ = \d+ credits|stays with .+: the \d+ credits still accumulated) cover/);
    expect(text).toContain(sender!);
    expect(text).toMatch(/downstream credits? (are|is) free, enough for it\.$/);
    seen.push(text);
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('anim-player')).toHaveAttribute('data-step', String(k + 1));
  }
  expect(new Set(seen).size).toBeGreaterThan(1);
  const glossary = page.getByTestId('anim-glossary');
  await expect(glossary.locator('dt')).toHaveText(['Entry (table pointer)', 'Weight', 'Accumulated', 'Deficit', 'Credits']);
});
