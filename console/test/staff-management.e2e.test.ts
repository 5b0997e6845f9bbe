import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, signedInContext } from './staff-browser.ts';

// Staff management in Settings, in a real browser: the owner adds a member with a role, changes
// the role, deactivates them, and the member's session, already open in another browser, ends. The
// add form's messages, the server's password refusals under the field and who sees the staff card
// are the component tests' (console/test/components/staff.component.test.tsx).

const JOURNEY_TIMEOUT_MS = 120_000;

/** The option of the select dropdown open now (antd keeps closed dropdowns in the page). */
const option = (page: Page, label: string) =>
  page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: new RegExp(`^${label}$`) });

describe('Staff management in Chromium', () => {
  let product: ProductUnderTest;

  beforeAll(async () => {
    product = await startProductUnderTest();
  }, 180_000);
  afterAll(async () => {
    await product?.close();
  });

  it(
    'adds a member, changes their role and deactivates them: their open session answers 401',
    async () => {
      const owner = await signedInContext(product, DESKTOP);
      const page = await owner.newPage();
      await page.goto(`${product.baseUrl}/settings`);
      const card = page.getByTestId('staff-card');
      await card.getByTestId('staff-row').filter({ hasText: product.login.email }).getByText('You').waitFor();
      await product.screenshot(page, 'settings-staff-1440');

      await card.getByRole('button', { name: 'Add Staff Member' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Email').fill('marta.manager@demo.test');
      await dialog.getByLabel('First Name').fill('Marta');
      await dialog.getByLabel('Last Name').fill('Manager');
      await dialog.getByLabel('Role').click();
      await option(page, 'Manager').click();
      await dialog.getByLabel('Temporary Password').fill('welcome aboard 1');
      await dialog.getByRole('button', { name: 'Add Staff Member' }).click();
      await page.getByText('Staff member added successfully').waitFor();
      const row = card.getByTestId('staff-row').filter({ hasText: 'marta.manager@demo.test' });
      await row.getByText('Marta Manager').waitFor();

      // The new member signs in, in a browser of their own.
      const member = await signedInContext(product, DESKTOP, { login: { email: 'marta.manager@demo.test', password: 'welcome aboard 1' } });
      const whoAmI = async () => member.request.get(`${product.baseUrl}/api/auth/user`);
      expect(((await (await whoAmI()).json()) as { role: string }).role).toBe('manager');

      await row.getByLabel('Role of marta.manager@demo.test').click();
      await option(page, 'Clerk').click();
      await page.getByText("Marta Manager's role is now Clerk").waitFor();
      expect(((await (await whoAmI()).json()) as { role: string }).role).toBe('clerk');

      await row.getByRole('button', { name: 'Deactivate' }).click();
      const confirm = page.locator('.ant-popconfirm').filter({ hasText: 'Deactivate Marta Manager?' });
      await confirm.getByRole('button', { name: 'Deactivate' }).click();
      await page.getByText('Marta Manager deactivated').waitFor();
      await row.getByText('Deactivated').waitFor();
      await row.getByRole('button', { name: 'Reactivate' }).waitFor();

      expect((await whoAmI()).status()).toBe(401);
      const memberPage = await member.newPage();
      await memberPage.goto(`${product.baseUrl}/customers`);
      await memberPage.getByRole('button', { name: 'Sign in' }).waitFor();

      await row.getByRole('button', { name: 'History' }).click();
      const history = page.getByRole('dialog').filter({ hasText: 'History: Marta Manager' });
      for (const description of ['Staff registered', 'Staff role changed', 'Staff deactivated']) await history.getByText(description).first().waitFor();
      await product.screenshot(page, 'settings-staff-history-1440');
      await owner.close();
      await member.close();
    },
    JOURNEY_TIMEOUT_MS,
  );
});
