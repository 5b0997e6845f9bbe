import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoStaffScreens, dismissToasts } from './staff-browser.ts';
import { screenshotViewport } from './viewport-screenshot.ts';

// The Smart Locks screen in Chromium on the demo data: the fleet's cards, a lock added on a unit
// found by a server search and then changed in its details, the gateway keys on Settings, and the
// phone layout. The forms' defaults, the placeholders, the facility scope and the refusal of a
// taken id are lock-details.component.test.tsx's.

describe('Smart Locks screen in Chromium', { timeout: 120_000 }, () => {
  const demo = demoStaffScreens();

  async function openLocks(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${demo.product.baseUrl}/locks`);
    await page.getByRole('heading', { name: 'Smart Locks' }).waitFor();
    await page.getByTestId('lock-card').first().waitFor();
    return page;
  }

  const search = (page: Page, text: string) => page.getByPlaceholder('Search locks by ID or unit...').fill(text);
  const cardOf = (page: Page, lockId: string) => page.getByTestId('lock-card').filter({ hasText: lockId });
  /** The option of the open select list (antd also keeps an invisible one for screen readers). */
  const chooseOption = (page: Page, label: string | RegExp) => page.locator('.ant-select-item-option').filter({ hasText: label, visible: true }).click();

  /** The wide tab: the gateway keys test goes on from the journey's screen through the sidebar, without loading the console again. */
  let wide: Page;

  it('shows the fleet, adds a lock on a unit found by a server search, then changes its status and takes it off its unit', async () => {
    const page = await openLocks(demo.wide);
    wide = page;
    const first = await page.getByTestId('lock-card').first().textContent();
    expect(first).toMatch(/^NK-\d+/);
    expect(first).toMatch(/Last seen: (Just now|\d+h ago|\d+d ago|Never)/);
    expect(first).toMatch(/\d+%/);
    expect(first).toMatch(/Firmware: \d+\.\d+\.\d+/);
    const texts = await page.getByTestId('lock-card').allTextContents();
    expect(texts.some((t) => /(RS|OH|HP)-[A-C]\d{3}/.test(t))).toBe(true);
    expect(texts.some((t) => t.includes('Unknown Unit'))).toBe(true);
    await demo.product.screenshot(page, 'locks-1440');
    await screenshotViewport(page, 'locks-1440-top');

    await page.getByRole('button', { name: 'Add Lock' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Lock' });
    // A lock id of its own per attempt: a retried attempt (a click lost on a loaded machine) must not
    // meet the lock an earlier attempt added.
    const lockId = `E2E-NK-${Date.now().toString(36).toUpperCase()}`;
    await dialog.getByLabel('Lock ID').fill(lockId);
    await dialog.getByLabel('Unit').click();
    await dialog.getByLabel('Unit').fill('RS-C10');
    await chooseOption(page, /^RS-C101 · Building C/);
    await dialog.getByLabel('Battery Level (%)').fill('87');
    await dialog.getByLabel('Firmware Version').fill('2.5.0');
    await dialog.getByRole('button', { name: 'Add Lock' }).click();
    await page.getByText('Lock created successfully').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await search(page, lockId);
    const card = cardOf(page, lockId);
    await card.getByText('Firmware: 2.5.0').waitFor();
    const text = await card.textContent();
    expect(text).toContain('RS-C101');
    expect(text).toContain('87%');
    expect(text).toContain('Last seen: Never');
    expect(text).toContain('Active');

    await dismissToasts(page);
    await card.getByRole('button', { name: `Settings of lock ${lockId}` }).click();
    const details = page.getByRole('dialog', { name: `Lock ${lockId}` });
    await details.waitFor();
    await screenshotViewport(page, 'locks-details-1440');
    await details.getByLabel('Status').click();
    await chooseOption(page, 'Maintenance');
    await details.getByLabel('Unit').click();
    await details.getByLabel('Unit').fill('no-unit-is-called-this');
    await chooseOption(page, 'No unit assigned');
    await details.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Lock updated successfully').waitFor();
    await details.waitFor({ state: 'hidden' });
    await card.getByText('Maintenance', { exact: true }).waitFor();
    await card.getByText('Unknown Unit').waitFor();
  });

  it('creates and rotates a facility’s gateway key on Settings, and the gateway reports with the current key only', async () => {
    const page = wide;
    const api = (path: string) => `${demo.product.baseUrl}${path}`;
    const facilities: Array<{ id: string; name: string }> = await (await page.request.get(api('/api/facilities'))).json();
    const harbor = facilities.find((f) => f.name === 'Harbor Point Storage')!;
    const [lock]: Array<{ id: string }> = await (await page.request.get(api(`/api/locks?facilityId=${harbor.id}&pageSize=1`))).json();
    const heartbeat = async (key: string) =>
      (await page.request.post(api(`/api/locks/${lock!.id}/heartbeat`), { headers: { authorization: `Bearer ${key}` }, data: { batteryLevel: 66 } })).status();

    await dismissToasts(page);
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const row = page.getByTestId('gateway-keys-card').getByTestId('gateway-key-row').filter({ hasText: 'Harbor Point Storage' });
    await row.getByText('No key yet').waitFor();
    await row.getByRole('button', { name: 'Create Key' }).click();
    const created = page.getByRole('dialog', { name: 'New gateway key for Harbor Point Storage' });
    await created.getByText('Copy this key now: it is not shown again.').waitFor();
    const first = (await created.getByTestId('issued-gateway-key').textContent())!.match(/sgk_[\w-]{43}/)![0];
    await screenshotViewport(page, 'gateway-key-issued-1440');
    await created.getByRole('button', { name: 'Done' }).click();
    await row.getByText(`Key ${first.slice(0, 12)}… created`, { exact: false }).waitFor();
    // The key works once the read model knows it: within the API's bounded wait, or soon after on a loaded machine.
    await expect.poll(() => heartbeat(first), { timeout: 15_000 }).toBe(200);

    await row.getByRole('button', { name: 'Rotate Key' }).click();
    await page.getByRole('button', { name: 'Rotate', exact: true }).click();
    const rotated = page.getByRole('dialog', { name: 'New gateway key for Harbor Point Storage' });
    const second = (await rotated.getByTestId('issued-gateway-key').textContent())!.match(/sgk_[\w-]{43}/)![0];
    expect(second).not.toBe(first);
    await rotated.getByRole('button', { name: 'Done' }).click();
    expect(await heartbeat(first)).toBe(401);
    await expect.poll(() => heartbeat(second), { timeout: 15_000 }).toBe(200);
    await page.close();
  });

  it('fits a phone screen without overlapping or cutting off', async () => {
    const page = await openLocks(demo.narrow);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await demo.product.screenshot(page, 'locks-390');
    await screenshotViewport(page, 'locks-390-top');
    const lockId = (await page.getByTestId('lock-card').first().locator('.ant-card-head-title').textContent())!;
    await page.getByRole('button', { name: `Settings of lock ${lockId}` }).click();
    await page.getByRole('dialog', { name: `Lock ${lockId}` }).waitFor();
    await screenshotViewport(page, 'locks-details-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Add Lock' }).click();
    await page.getByRole('dialog', { name: 'Add Lock' }).waitFor();
    await screenshotViewport(page, 'locks-add-390');
    await page.close();
  });
});
