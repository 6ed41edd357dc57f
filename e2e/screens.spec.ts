// Screenshots at 1440 and 390 px of the experiment view (with results), the designer and the
// animation (the lesson's are taken by lessons.spec.ts); at 390 px nothing scrolls sideways.
import { expect, test, type Page } from '@playwright/test';
import { screens } from './helpers';

const noSideways = (page: Page, width: number) =>
  expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

for (const width of [1440, 390]) {
  test(`the experiment view with results at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('./#view=r2&loads=0.9,1&seeds=2&seed=1&us=500');
    const view = page.getByRole('main', { name: 'Multimedia network (R2)' });
    await view.getByRole('button', { name: 'Run R2 sweep' }).click();
    await expect(view.getByTestId('r2-status')).toContainText('Done: 16 runs', { timeout: 60_000 });
    await expect(view.getByTestId('r2-improvement-formula')).toBeVisible();
    await noSideways(page, width);
    await page.screenshot({ path: `${screens}experiment-${width}.png`, fullPage: true });
    await page.screenshot({ path: `${screens}experiment-${width}-top.png` });
    await view.getByTestId('r2-mean').screenshot({ path: `${screens}experiment-${width}-mean.png` });
    await view.getByTestId('r2-improvement').screenshot({ path: `${screens}experiment-${width}-improvement.png` });
  });

  test(`the designer and the animation at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('./#view=design');
    await page.getByRole('button', { name: 'Auto-design' }).click();
    await expect(page.getByTestId('design-status')).toContainText('Designed: ');
    await noSideways(page, width);
    await page.screenshot({ path: `${screens}designer-${width}.png`, fullPage: true });
    await page.screenshot({ path: `${screens}designer-${width}-top.png` });
    await page.goto('./#preset=r1-dtable&view=animate');
    await expect(page.getByTestId('anim-why')).toContainText('Why: ', { timeout: 30_000 });
    await page.getByTestId('anim-player').focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('anim-glossary')).toContainText('Accumulated');
    await noSideways(page, width);
    await page.screenshot({ path: `${screens}animation-${width}.png`, fullPage: true });
    await page.getByTestId('anim-player').screenshot({ path: `${screens}animation-${width}-player.png` });
  });
}
