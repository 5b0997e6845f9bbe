import { randomUUID } from 'node:crypto';
import { expectAccessible } from '@storage/testing/axe';
import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The renter chooses, on their Profile, which optional emails they get; legal notices are said to
// be always sent, and the choice holds on the server (staff see it on the customer page).

describe('message choices in the portal, in Chromium', { timeout: 120_000 }, () => {
  let product: ProductUnderTest;
  let staff: string;

  beforeAll(async () => {
    product = await startProductUnderTest();
    staff = await product.platform.signIn('clerk');
  }, 240_000);
  afterAll(async () => {
    await product?.close();
  });

  it('turns off payment receipts and keeps the choice', async () => {
    const email = `choices-${randomUUID().slice(0, 6)}@renter.test`;
    const created = await product.platform.api.app.inject({
      method: 'POST',
      url: '/api/customers',
      payload: { firstName: 'Cleo', lastName: 'Choices', email, phone: '(503) 555-0177' },
      headers: { cookie: staff },
    });
    expect(created.statusCode).toBe(201);

    const page = await product.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${product.baseUrl}/customer-portal`);
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Last 4 Digits of Phone').fill('0177');
    await page.getByRole('button', { name: 'Access My Account' }).click();
    await page.getByRole('tab', { name: 'Profile' }).click();
    const choices = page.getByTestId('message-choices');
    const receipts = choices.getByLabel('Payment receipt');
    await receipts.waitFor();
    expect(await receipts.isChecked()).toBe(true);
    expect(await choices.textContent()).toContain(
      'Always sent, as the law requires: Autopay failed, Late notice, Lockout notice, Pre-lien notice, Rent change notice, Protection plan enrolment.',
    );
    await expectAccessible(page, 'portal profile with message choices');

    await receipts.uncheck();
    await choices.getByText('Your choices are saved.').waitFor();
    const saved = await product.platform.api.app.inject({
      method: 'GET',
      url: `/api/customers/${created.json().id}/message-preferences`,
      headers: { cookie: staff },
    });
    expect(saved.json().optOuts).toEqual(['payment_receipt']);

    await page.reload();
    await page.getByRole('tab', { name: 'Profile' }).click();
    await choices.getByLabel('Invoice issued').waitFor();
    expect(await choices.getByLabel('Payment receipt').isChecked()).toBe(false);
    await page.close();
  });
});
