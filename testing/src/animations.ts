// Waiting for the page to stand still: dialogs and drawers slide in, lists open, a button's colour
// eases under the pointer. A screenshot, a click into a list that is still moving, or a colour
// measurement (axe) waits for these first.
import type { Page } from 'playwright-core';

/**
 * Resolves once every finite animation and transition now running on `page` has ended, or after
 * `capMs`. Endless ones (a spinner, a loading shimmer) are not waited for, nor is a cancelled one.
 */
export function animationsDone(page: Page, capMs = 3000): Promise<unknown> {
  return page.evaluate((cap) => {
    const ending = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY);
    return Promise.race([Promise.all(ending.map((a) => a.finished.catch(() => undefined))), new Promise((resolve) => setTimeout(resolve, cap))]);
  }, capMs);
}
