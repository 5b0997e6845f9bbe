import type { Page } from 'playwright-core';

/**
 * Saves what a person sees without scrolling, once animations have settled, when SCREENSHOT_DIR
 * is set (product.screenshot saves the whole page).
 */
export async function screenshotViewport(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  await page.screenshot({ path: `${dir}/${name}.png` });
}
