// Fabric-manager exports from the designer: the complete OpenSM configuration with the
// settings edited in the designer (port type, high table, high limit, SL2VL), imported back;
// the Omni-Path opafm.xml and the Linux ETS command downloaded, each equal to what
// `qoslab design --format ...` prints for the same requirements.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { cliPath, screens } from './helpers';

const CLASSES = [
  { name: 'NC', distance: 2, mtu_bytes: 192, share: 0.09375 },
  { name: 'VO', distance: 4, mtu_bytes: 192, share: 0.046875 },
  { name: 'VI', distance: 8, mtu_bytes: 2048, share: 0.5 },
  { name: 'CL', distance: 16, mtu_bytes: 2048, share: 0.203125 },
  { name: 'EE', distance: 32, mtu_bytes: 1024, share: 0.09375 },
  { name: 'BE', distance: 64, mtu_bytes: 1024, share: 0.046875 },
  { name: 'BK', distance: 64, mtu_bytes: 1024, share: 0.015625 },
];

/** What `qoslab design <requirements> --format <format>` prints for the vector with `fabric`. */
function cli(technology: string, fabric: object, format: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'qoslab-fabric-'));
  const file = join(dir, 'requirements.json');
  try {
    writeFileSync(file, JSON.stringify({ technology, entries: 64, gmtu_bytes: 2048, w: 2, k: 0.5, link_rate_gbps: 2, classes: CLASSES, fabric }));
    return execFileSync(cliPath, ['design', file, '--format', format], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function designVector(page: Page, technology: string): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 1400 });
  await page.goto('./#view=design');
  await page.getByRole('button', { name: 'Load the multimedia vector' }).click();
  await page.getByLabel('Technology', { exact: true }).selectOption(technology);
  await page.getByRole('button', { name: 'Auto-design' }).click();
  await expect(page.getByTestId('design-status')).toContainText('Designed: w = 2, k = 0.5, pool 1024, M = 64.');
}

test('InfiniBand: port type, high table, high limit and SL2VL edited, exported as the CLI does, imported back', async ({ page }) => {
  await designVector(page, 'infiniband');
  const panel = page.getByRole('region', { name: 'Fabric manager settings' });
  // Until a VL is picked, the SLs without a class show the engine's default: BE (VL 5).
  await expect(panel.getByLabel('SL 9 VL')).toHaveValue('5');
  await panel.getByTestId('fabric-prefix').selectOption('qos_swe_');
  await panel.getByRole('button', { name: 'Add a high-priority entry' }).click();
  await panel.getByLabel('High entry 1 class').selectOption('NC');
  await panel.getByLabel('High entry 1 weight').fill('4');
  await panel.getByRole('button', { name: 'Add a high-priority entry' }).click();
  await panel.getByLabel('High entry 2 class').selectOption('VO');
  await panel.getByLabel('High entry 2 weight').fill('2');
  await panel.getByLabel('High limit (4 KiB units, 255 = unbounded)').fill('6');
  await panel.getByLabel('SLs without a class go to').selectOption('6');
  await panel.getByLabel('SL 15 VL').selectOption('15');
  await expect(panel.getByLabel('SL 9 VL')).toHaveValue('6');
  // A bad weight is named by the engine under the panel.
  await panel.getByLabel('High entry 2 weight').fill('300');
  await expect(panel.getByRole('alert')).toContainText('fabric.high[1].weight: must be 0-255');
  await panel.getByLabel('High entry 2 weight').fill('2');
  await page.getByRole('button', { name: 'Auto-design' }).click();
  const opensm = page.getByTestId('design-opensm');
  await expect(opensm).toHaveValue(/qos_swe_sl2vl 0,1,2,3,4,5,6,6,6,6,6,6,6,6,6,15/);
  const text = await opensm.inputValue();
  const fabric = {
    prefix: 'qos_swe_',
    high: [
      { class: 'NC', weight: 4 },
      { class: 'VO', weight: 2 },
    ],
    high_limit: 6,
    sl2vl: [0, 1, 2, 3, 4, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 15],
  };
  expect(text.trim()).toBe(cli('infiniband', fabric, 'opensm').trim());
  expect(text).toContain('\nqos TRUE\nqos_swe_max_vls 8\nqos_swe_high_limit 6\nqos_swe_vlarb_high 0:4,1:2\nqos_swe_vlarb_low 0:3,1:3,0:3,2:64,');
  await page.screenshot({ path: `${screens}design-fabric-ib.png`, fullPage: true });

  // Forget the settings, then import the export: they come back, and so does the same text.
  await panel.getByTestId('fabric-prefix').selectOption('qos_');
  await panel.getByRole('button', { name: 'Remove' }).first().click();
  await page.getByLabel('Import: paste OpenSM lines, an opafm.xml or design JSON').fill(text);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByTestId('design-import-result')).toContainText('Kept qos_swe_ settings: 2 high-table entries, high limit 6');
  await expect(panel.getByTestId('fabric-prefix')).toHaveValue('qos_swe_');
  await expect(panel.getByLabel('High entry 2 class')).toHaveValue('VO');
  await expect(panel.getByLabel('SL 15 VL')).toHaveValue('15');
  await expect(opensm).toHaveValue(text);
});

test('Omni-Path: opafm.xml and the ETS command download with the CLI’s content, and the XML imports back', async ({ page }) => {
  await designVector(page, 'omnipath');
  const panel = page.getByRole('region', { name: 'Fabric manager settings' });
  await panel.getByRole('button', { name: 'Add a high-priority class' }).click();
  await panel.getByLabel('High entry 1 class').selectOption('NC');
  await page.getByRole('button', { name: 'Auto-design' }).click();
  const fabric = { high: [{ class: 'NC', weight: 255 }] };
  const area = page.getByTestId('design-fabric-export');
  await expect(area).toHaveValue(/<HighPriority>1<\/HighPriority>/);
  const [xmlDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download qoslab-opafm.xml' }).click()]);
  expect(xmlDownload.suggestedFilename()).toBe('qoslab-opafm.xml');
  const xml = await readFile(await xmlDownload.path(), 'utf8');
  expect(xml.trim()).toBe(cli('omnipath', fabric, 'opafm').trim());
  expect(xml).toContain('<Bandwidth>50%</Bandwidth>');

  await page.getByLabel('Omni-Path FM and Linux ETS').selectOption('ets');
  await expect(area).toHaveValue(/ets bands 7 strict 1 quanta /);
  const [etsDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download qoslab-ets.sh' }).click()]);
  const ets = await readFile(await etsDownload.path(), 'utf8');
  expect(ets.trim()).toBe(cli('omnipath', fabric, 'ets').trim());
  await page.screenshot({ path: `${screens}design-fabric-opa.png`, fullPage: true });

  // The downloaded file imports back: the same classes, NC high priority, VI 50 %.
  await page.getByLabel('Import a file…').setInputFiles({ name: 'qoslab-opafm.xml', mimeType: 'application/xml', buffer: Buffer.from(xml) });
  await expect(page.getByTestId('design-import-result')).toContainText('Imported an Omni-Path opafm.xml from qoslab-opafm.xml.');
  await expect(panel.getByLabel('High entry 1 class')).toHaveValue('NC');
  await expect(page.getByLabel('VI wanted share')).toHaveValue('0.5');
  // A hand-edited invalid file is refused, naming the element and the rule.
  const bad = xml.replace('<Bandwidth>50%</Bandwidth>', '<Bandwidth>120%</Bandwidth>');
  await page.getByLabel('Import: paste OpenSM lines, an opafm.xml or design JSON').fill(bad);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByTestId('design-import-result')).toContainText('QOSGroup "VI" > Bandwidth: must be a whole percentage 1-100%');
});

test('Omni-Path: the DTable adaptation with its registers, counted by the engine for the switch size', async ({ page }) => {
  await designVector(page, 'omnipath');
  const opa = page.getByTestId('design-mapping-omnipath');
  await expect(opa).toContainText("dedicated table next to each output's SL arbiter");
  await expect(opa).not.toContainText('47 left unused');
  const layout = opa.getByTestId('design-opa-layout');
  await expect(layout).toContainText('48-port switch with 32 SLs');
  await expect(layout.getByRole('row', { name: /Deficit counters/ })).toContainText('1536');
  await expect(layout.getByRole('row', { name: /Accumulated-weight/ })).toContainText('48');
  await page.getByLabel('Switch ports').fill('24');
  await page.getByRole('button', { name: 'Auto-design' }).click();
  await expect(layout).toContainText('24-port switch with 32 SLs');
  await expect(layout.getByRole('row', { name: /Deficit counters/ })).toContainText('768');
  await page.setViewportSize({ width: 390, height: 1400 });
  await opa.scrollIntoViewIfNeeded();
  // The table fits a 390 px screen: no wider than the panel it sits in.
  const [tableBox, panelBox] = [await layout.boundingBox(), await opa.boundingBox()];
  expect(tableBox && panelBox && tableBox.x + tableBox.width <= panelBox.x + panelBox.width + 1).toBe(true);
  await opa.screenshot({ path: `${screens}design-opa-layout-390.png` });
});

test('the R3 table: its requirements load from the bundled file and Auto-design finds w = 2.9, k = 0.5', async ({ page }) => {
  await page.goto('./#view=design');
  await page.getByRole('button', { name: 'Load the R3 table requirements' }).click();
  await expect(page.getByTestId('design-status')).toContainText('Loaded the R3 table requirements');
  await expect(page.getByLabel('VO wanted share')).toHaveValue('0.164');
  await page.getByRole('button', { name: 'Auto-design' }).click();
  await expect(page.getByTestId('design-status')).toContainText('Designed: w = 2.9, k = 0.5, pool 1024, M = 92.');
});
