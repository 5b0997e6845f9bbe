import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { addCustomer } from '@storage/domain/customers/commands';
import { expectAccessible } from '@storage/testing/axe';
import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Autopay in the portal, in Chromium: a renter saves a card with the test provider's fields (a
// refused number says why and saves nothing), sees it (brand, last 4, expiry), turns autopay off
// and on, and removes the card; the history holds the provider's references, never the number.

describe('autopay in the portal, in Chromium', () => {
  let product: ProductUnderTest;
  let customerId: string;
  const email = `auto-${randomUUID().slice(0, 8)}@example.com`;

  beforeAll(async () => {
    product = await startProductUnderTest();
    const { store } = product.platform.api;
    const added = await addCustomer(
      { store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() },
      {
        firstName: 'Otto',
        lastName: 'Autopay',
        email,
        phone: '555-867-5309',
        address: null,
        emergencyContact: null,
        emergencyPhone: null,
        status: 'active',
        facilityId: null,
      },
    );
    if (added.state.status !== 'current') throw new Error('no customer');
    customerId = added.state.customerId;
    expect(await product.platform.readModelCaughtUp()).toBe(true);
  }, 240_000);
  afterAll(async () => {
    await product?.close();
  });

  it('saves a card, shows it, turns autopay off and on, and removes it', async () => {
    const page = await product.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${product.baseUrl}/customer-portal`);
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Last 4 Digits of Phone').fill('5309');
    await page.getByRole('button', { name: 'Access My Account' }).click();
    await page.getByRole('tab', { name: 'Autopay' }).click();
    await page.getByText('Save a card to turn autopay on.').waitFor();
    expect(await page.getByRole('switch', { name: 'Autopay' }).isDisabled()).toBe(true);

    // A number the provider does not know: its message, nothing saved.
    await page.getByLabel('Card number').fill('4111 1111 1111 1111');
    await page.getByLabel('Expiry').fill('12/30');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Save Card' }).click();
    await page.getByRole('alert').getByText('Your card number is invalid.').waitFor();

    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Save Card' }).click();
    await page.getByTestId('saved-card').getByText('Visa ending in 4242, expires 12/2030').waitFor();
    await page.getByText('Autopay is on.').waitFor();
    expect(await page.getByRole('switch', { name: 'Autopay' }).isChecked()).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(0);
    await expectAccessible(page, 'the portal autopay tab');

    await page.getByRole('switch', { name: 'Autopay' }).click();
    await page.getByText('Autopay is off.').waitFor();
    await page.getByRole('switch', { name: 'Autopay' }).click();
    await page.getByText('Autopay is on.').waitFor();

    // As the renter left it, after a reload.
    await page.reload();
    await page.getByRole('tab', { name: 'Autopay' }).click();
    await page.getByText('Autopay is on.').waitFor();
    expect(await page.getByTestId('saved-card').count()).toBe(1);

    const history = (await product.platform.api.store.readStream(streams.paymentProfile(customerId))).map((e) => ({ type: e.type, data: e.data }));
    expect(history.map((e) => e.type)).toEqual(['payment_method_saved', 'autopay_enrolled', 'autopay_cancelled', 'autopay_enrolled']);
    expect(JSON.stringify(history)).not.toMatch(/4242 ?4242/);

    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No saved card.').waitFor();
    await page.getByText('Save a card to turn autopay on.').waitFor();
    await page.close();
  });
});
