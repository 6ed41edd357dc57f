// Issue 16 in the browser: a run that hits the engine's run-time budget stops with a
// message naming the figure, and a worker that stops answering is replaced; either way the
// app keeps working.
import { expect, test } from '@playwright/test';
import { deflateSync } from 'fflate';
import { defaultScenario, openApp, runButton, runToEnd } from './helpers';

/** A share-link hash for a scenario (as the app encodes it). */
function hashFor(scenario: unknown): string {
  const json = JSON.stringify(scenario);
  return `#v=1&s=${Buffer.from(deflateSync(new TextEncoder().encode(json), { level: 9 })).toString('base64url')}`;
}

/** The default scenario with class 0 overloaded (load 4 of 64-byte packets for 2 s). */
async function overloaded(): Promise<unknown> {
  const s = await defaultScenario();
  const classes = s.model.classes as unknown as { traffic: { load: number; size: unknown } }[];
  classes[0]!.traffic.load = 4;
  classes[0]!.traffic.size = { kind: 'fixed', bytes: 64 };
  return s;
}

test('a run over the packets-held budget stops, names the figure, and the app keeps working', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page, hashFor(await overloaded()));
  await expect(runButton(page)).toBeEnabled();
  await runButton(page).click();
  const status = page.getByTestId('run-status');
  await expect(status).toContainText('The run was stopped', { timeout: 90_000 });
  await expect(status).toContainText('packets_held');
  await expect(status).toContainText('more than the budget of 4194304 packets');
  // Bring the load back: the same worker runs the scenario to the end.
  const load = page.getByLabel('Load (fraction of link)').first();
  await load.fill('0.1');
  await runToEnd(page);
});

test('a worker that stops answering is replaced and the next run works', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page);
  await expect(runButton(page)).toBeEnabled();
  await expect.poll(() => page.workers().length).toBeGreaterThan(0);
  const worker = page.workers()[0]!;
  // Keep the engine's thread busy for 60 s: it answers nothing (as when out of memory).
  void worker
    .evaluate(() => {
      const end = Date.now() + 60_000;
      while (Date.now() < end) {
        // busy
      }
    })
    .catch(() => undefined);
  await runButton(page).click();
  const status = page.getByTestId('run-status');
  await expect(status).toContainText('The engine failed and was restarted', { timeout: 40_000 });
  await expect(status).toContainText('stopped answering');
  await runToEnd(page);
});
