import type { Locator, Page } from 'playwright-core';

/** Draws a stroke across a signature pad with the mouse, as a signer would with a finger or a pen. */
export async function drawSignature(page: Page, pad: Locator): Promise<void> {
  const box = await pad.boundingBox();
  if (!box) throw new Error('The signature pad is not on screen');
  await page.mouse.move(box.x + 10, box.y + 10);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
}
