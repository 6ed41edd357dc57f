// The table designer end to end: design the spec's multimedia vector and read the spec
// table's numbers, export OpenSM lines and import them back, edit an entry with the
// keyboard and see the violation, share the design by link, and simulate it in the lab.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { runButton, screens } from './helpers';

/** The spec's test vector (shared/spec/20-table-design.md), per class. */
const VECTOR = [
  { name: 'NC', d: 2, entries: 32, weights: '3', min: '0.09375', max: '2', wanted: '0.09375', total: '96' },
  { name: 'VO', d: 4, entries: 16, weights: '3', min: '0.046875', max: '1', wanted: '0.046875', total: '48' },
  { name: 'VI', d: 8, entries: 8, weights: '64', min: '0.25', max: '0.5', wanted: '0.5', total: '512' },
  { name: 'CL', d: 16, entries: 4, weights: '52', min: '0.125', max: '0.25', wanted: '0.203125', total: '208' },
  { name: 'EE', d: 32, entries: 2, weights: '48', min: '0.03125', max: '0.125', wanted: '0.09375', total: '96' },
  { name: 'BE', d: 64, entries: 1, weights: '48', min: '0.015625', max: '0.0625', wanted: '0.046875', total: '48' },
  { name: 'BK', d: 64, entries: 1, weights: '16', min: '0.015625', max: '0.0625', wanted: '0.015625', total: '16' },
];

async function openDesigner(page: Page, hash = '#view=design'): Promise<void> {
  await page.goto(`./${hash}`);
  await expect(page.getByRole('heading', { name: 'Table designer', exact: true })).toBeVisible();
}

async function expectVectorNumbers(page: Page): Promise<void> {
  await expect(page.getByTestId('design-pool')).toContainText('Pool 1024 credits; largest entry weight M = 64');
  for (const c of VECTOR) {
    const row = page.getByTestId(`design-class-${c.name}`);
    await expect(row.getByTestId('entries')).toHaveText(String(c.entries));
    await expect(row.getByTestId('weights')).toHaveText(c.weights);
    await expect(row.getByTestId('total')).toHaveText(c.total);
    await expect(row.getByTestId('min')).toHaveText(c.min);
    await expect(row.getByTestId('max')).toHaveText(c.max);
    await expect(row.getByTestId('wanted')).toHaveText(c.wanted);
    await expect(row.getByTestId('share')).toHaveText(c.wanted);
    // Evenly spaced: each class's largest distance is exactly its requested one.
    await expect(row.getByTestId('distance')).toHaveText(`${c.d} / ${c.d}`);
    await expect(row.getByTestId('bound')).toHaveText(/^[0-9.]+ µs$/);
  }
}

/** The table as the ring shows it: [class, weight] per entry. */
async function ringTable(page: Page): Promise<[string, string][]> {
  return page
    .getByTestId('design-ring')
    .locator('path.design-entry')
    .evaluateAll((els) => els.map((e) => [e.getAttribute('data-class') ?? '', e.getAttribute('data-weight') ?? ''] as [string, string]));
}

test('designs the multimedia vector: the spec table’s numbers, OpenSM export and import', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1400 });
  await page.goto('./');
  await page.getByRole('button', { name: 'Table designer' }).click();
  await expect(page.getByRole('heading', { name: 'Table designer', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Load the multimedia vector' }).click();
  await expect(page.getByLabel('w', { exact: true })).toHaveValue('2');
  await expect(page.getByLabel('k', { exact: true })).toHaveValue('0.5');
  await page.getByRole('button', { name: 'Auto-design' }).click();
  await expect(page.getByTestId('design-status')).toContainText('Designed: w = 2, k = 0.5, pool 1024, M = 64.');
  await expectVectorNumbers(page);
  await expect(page.getByTestId('design-ok')).toHaveText('Every constraint is met.');
  const designed = await ringTable(page);
  expect(designed).toHaveLength(64);
  // The spec's placement: NC on even entries, VO from 1 every 4, VI from 3 every 8, ...
  expect(designed[0]).toEqual(['NC', '3']);
  expect(designed[1]).toEqual(['VO', '3']);
  expect(designed[3]).toEqual(['VI', '64']);
  expect(designed[7]).toEqual(['CL', '52']);
  expect(designed[15]).toEqual(['EE', '48']);
  expect(designed[31]).toEqual(['BE', '48']);
  expect(designed[63]).toEqual(['BK', '16']);
  // How the design maps onto each technology (the engine's words).
  await expect(page.getByTestId('design-mappings').locator('li[data-fits]')).toHaveCount(4);
  await expect(page.getByTestId('design-mapping-dtable')).toHaveAttribute('data-fits', 'true');
  await page.getByTestId('design-mapping-infiniband').locator('summary').click();
  await page.screenshot({ path: `${screens}design-vector.png`, fullPage: true });

  // OpenSM lines exist for InfiniBand: same numbers (the GMTU fits the 8-bit weights).
  await expect(page.getByTestId('design-opensm-why')).toContainText('choose the technology InfiniBand');
  await page.getByLabel('Technology', { exact: true }).selectOption('infiniband');
  await page.getByRole('button', { name: 'Auto-design' }).click();
  await expectVectorNumbers(page);
  const opensm = page.getByTestId('design-opensm');
  await expect(opensm).toHaveValue(/\nqos TRUE\nqos_max_vls 8\nqos_high_limit 0\nqos_vlarb_high 0:0\nqos_vlarb_low 0:3,1:3,0:3,2:64,/);
  const lines = await opensm.inputValue();
  // The engine maps SL s to VL s for the classes, the SLs without a class to the most
  // latency-tolerant class (BE, VL 5) until the user picks a VL: never silently to 15.
  expect(lines).toContain('qos_sl2vl 0,1,2,3,4,5,6,5,5,5,5,5,5,5,5,5');
  const low = /qos_vlarb_low (.*)/.exec(lines)![1]!.split(',');
  expect(low).toHaveLength(64);
  expect(low.map((p) => Number(p.split(':')[1])).reduce((a, b) => a + b, 0)).toBe(1024);

  // Change the table, then paste the exported lines back: the designed table returns.
  // Entry 0 from NC to VO with the keyboard: NC's distance 2 breaks, in words.
  await page.getByTestId('design-ring').focus();
  await page.keyboard.press('c');
  expect((await ringTable(page))[0]).toEqual(['VO', '3']);
  const violations = page.getByTestId('design-violations');
  await expect(violations.locator('li[data-rule="distance"]')).toHaveText(
    'NC: its consecutive entries 62 and 2 are 4 apart (3 entries in between are not its own), but its distance is 2.',
  );
  await expect(page.getByTestId('design-class-NC').getByTestId('distance')).toHaveText('4 / 2');
  await expect(page.getByTestId('design-class-NC').getByTestId('entries')).toHaveText('31');
  await expect(page.getByTestId('design-live')).toContainText('violated');
  await page.screenshot({ path: `${screens}design-violation.png`, fullPage: true });
  await page.getByLabel('Import: paste OpenSM lines, an opafm.xml or design JSON').fill(`# exported by qoslab\nqos TRUE\n${lines}`);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByTestId('design-import-result')).toContainText('Imported OpenSM lines from the text (64 entries).');
  expect(await ringTable(page)).toEqual(designed);
  await expectVectorNumbers(page);

  // A line out of range is refused, naming the line, the entry and the rule.
  await page.getByLabel('Import: paste OpenSM lines, an opafm.xml or design JSON').fill('qos_vlarb_high 0:0\nqos_vlarb_low 0:3,16:4');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByTestId('design-import-result')).toContainText('line 2 (qos_vlarb_low), entry 2: VL 16 is out of range 0-15');
  expect(await ringTable(page)).toEqual(designed);
  await page.screenshot({ path: `${screens}design-import.png`, fullPage: true });

  // The design JSON downloads, and the file imports back after an edit.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download design JSON' }).click()]);
  expect(download.suggestedFilename()).toBe('qoslab-design.json');
  const json = await readFile(await download.path(), 'utf8');
  expect(JSON.parse(json)).toMatchObject({ version: 1, requirements: { technology: 'infiniband', w: 2, k: 0.5, link_rate_gbps: 2 }, evaluation: { pool: 1024 } });
  await page.getByTestId('design-ring').focus();
  await page.keyboard.press('-');
  expect((await ringTable(page))[0]).toEqual(['NC', '2']);
  await page.getByLabel('Import a file…').setInputFiles({ name: 'qoslab-design.json', mimeType: 'application/json', buffer: Buffer.from(json) });
  await expect(page.getByTestId('design-import-result')).toContainText('Imported design from qoslab-design.json (64 entries).');
  expect(await ringTable(page)).toEqual(designed);

  // The InfiniBand table simulates as the low table of IBA arbitration, valid for the lab.
  await page.getByRole('button', { name: 'Simulate this table' }).click();
  await expect(page.getByLabel('Scheduler kind', { exact: true })).toHaveValue('iba');
  await expect(page.getByLabel('Name', { exact: true }).first()).toHaveValue('Designed InfiniBand table (64 entries)');
  await expect(runButton(page)).toBeEnabled();
});

test('shows the engine’s messages next to the field they name', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await openDesigner(page);
  await page.getByLabel('NC distance').fill('0');
  await expect(page.getByTestId('design-error-classes[0].distance')).toHaveText('must be between 1 and entries = 64 or null (got 0)');
  await expect(page.getByLabel('NC distance')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('NC distance').fill('2');
  await page.getByLabel('Entries N').fill('6x');
  await expect(page.getByTestId('design-error-entries')).toHaveText('must be a number (got 6x)');
  await expect(page.getByRole('button', { name: 'Auto-design' })).toBeDisabled();
  await page.getByLabel('Entries N').fill('64');
  await page.getByLabel('VO wanted share').fill('0.9');
  await expect(page.getByTestId('design-error-classes')).toContainText('the shares add up to');
  await page.screenshot({ path: `${screens}design-errors.png`, fullPage: true });
});

test('shares the design by link and simulates it in the lab', async ({ page, context }) => {
  await page.setViewportSize({ width: 1440, height: 1200 });
  await openDesigner(page);
  await page.getByRole('button', { name: 'Load the multimedia vector' }).click();
  await page.getByRole('button', { name: 'Auto-design' }).click();
  await expectVectorNumbers(page);
  // Edit entry 2 (NC) with the keyboard: weight 3 -> 5.
  await page.getByTestId('design-ring').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await expect(page.getByTestId('design-ring')).toHaveAttribute('data-selected', '2');
  await expect(page.getByLabel('Selected entry weight')).toHaveValue('5');
  const edited = await ringTable(page);
  expect(edited[2]).toEqual(['NC', '5']);

  await expect.poll(() => page.url()).toMatch(/#view=design&v=1&d=[A-Za-z0-9_-]+$/);
  const link = await page.getByLabel('Share link').inputValue();
  const other = await context.newPage();
  await other.setViewportSize({ width: 1440, height: 1200 });
  await other.goto(link);
  await expect(other.getByRole('heading', { name: 'Table designer', exact: true })).toBeVisible();
  await expect(other.getByLabel('w', { exact: true })).toHaveValue('2');
  await expect(other.getByLabel('BK MTU')).toHaveValue('1024');
  expect(await ringTable(other)).toEqual(edited);
  await other.screenshot({ path: `${screens}design-shared.png`, fullPage: true });

  await other.getByRole('button', { name: 'Simulate this table' }).click();
  await expect(other.getByLabel('Name', { exact: true }).first()).toHaveValue('Designed DTable table (64 entries)');
  await expect(other.getByLabel('Scheduler kind', { exact: true })).toHaveValue('dtable');
  await expect(other.getByLabel('Entry 2 weight', { exact: true })).toHaveValue('5');
  await expect(other.getByLabel('Entry 3 weight', { exact: true })).toHaveValue('64');
  await expect(runButton(other)).toBeEnabled();
  await other.screenshot({ path: `${screens}design-simulate.png`, fullPage: true });
  // Back returns to the designer with the same design.
  await other.goBack();
  await expect(other.getByRole('heading', { name: 'Table designer', exact: true })).toBeVisible();
  expect(await ringTable(other)).toEqual(edited);
});

test('Advanced Switching: entries only, simulated as an AS basic table; the lab keeps its scenario', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1200 });
  await page.goto('./');
  await expect(page.getByLabel('Name', { exact: true }).first()).toBeVisible();
  await page.getByLabel('Name', { exact: true }).first().fill('My lab scenario');
  await expect.poll(() => page.url()).toMatch(/#v=1&s=/);
  await page.getByRole('button', { name: 'Table designer' }).click();
  await page.getByRole('button', { name: 'Load the multimedia vector' }).click();
  await page.getByLabel('Technology', { exact: true }).selectOption('as');
  await page.getByLabel('w', { exact: true }).fill('');
  await page.getByLabel('k', { exact: true }).fill('');
  // A renamed class keeps its entries.
  await page.getByRole('button', { name: 'Auto-design' }).click();
  await expect(page.getByTestId('design-pool')).toContainText('No weights: each class gets its fraction of the entries; link 2 Gb/s.');
  await page.getByLabel('Class 1 name').fill('Control');
  await expect(page.getByTestId('design-class-Control').getByTestId('entries')).toHaveText('32');
  await expect(page.getByTestId('design-class-Control').getByTestId('share')).toHaveText('0.5');
  // Entries alone cannot give VI half of the link: the evaluation says so.
  await expect(page.getByTestId('design-violations')).toContainText("VI: it has 8 of the table's 64 entries, a share of 0.125000 of the packets, below the wanted 0.5.");
  expect(await page.getByLabel('Selected entry weight').count()).toBe(0);
  await page.screenshot({ path: `${screens}design-as.png`, fullPage: true });

  await page.getByRole('button', { name: 'Simulate this table' }).click();
  await expect(page.getByLabel('Scheduler kind', { exact: true })).toHaveValue('as_basic');
  await expect(runButton(page)).toBeEnabled();
  // The designer, then the lab from the header: the scenario being edited before is back,
  // even when the designer is opened before the address has caught up with the edit.
  await page.goto('./');
  await page.getByLabel('Name', { exact: true }).first().fill('My lab scenario');
  await page.getByRole('button', { name: 'Table designer' }).click();
  await expect(page.getByRole('heading', { name: 'Table designer', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Link lab' }).click();
  await expect(page.getByLabel('Name', { exact: true }).first()).toHaveValue('My lab scenario');
});
