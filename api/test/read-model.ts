import type { TestPlatform } from '@storage/testing/platform';

/**
 * Waits until the read model has passed every append so far. A command waits for it only up to
 * 2 s, which a loaded test machine can exceed; tests that are not about that wait use this.
 */
export async function readModelCaughtUp(platform: TestPlatform): Promise<void> {
  await platform.readModelCaughtUp(30_000);
}
