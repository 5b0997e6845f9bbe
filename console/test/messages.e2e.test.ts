import { randomUUID } from 'node:crypto';
import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseSelectOption, DESKTOP, signedInContext } from './staff-browser.ts';

// Sent messages and the wording of templates, in Chromium: an invoice sent to a renter shows in
// Sent messages (the development adapter: no SMTP configured) with its body in a drawer; an
// owner rewords the invoice message and the next one is sent in the new words. The card's own
// checks (the refusal of an unknown placeholder, the preview) are message-templates.component.test.tsx's.

const eventually = { timeout: 15_000 };

describe('messages to renters in Chromium', { timeout: 180_000 }, () => {
  let product: ProductUnderTest;
  let context: BrowserContext;
  /** One tab for the file: the second test goes on from the first's screen through the sidebar, as staff do, without loading the console again. */
  let page: Page;

  beforeAll(async () => {
    product = await startProductUnderTest();
    context = await signedInContext(product, DESKTOP);
    page = await context.newPage();
  }, 240_000);
  afterAll(async () => {
    await product?.close();
  });

  async function renterWithSentInvoice(lastName: string, amount: string) {
    const api = (path: string) => `${product.baseUrl}${path}`;
    const email = `${lastName.toLowerCase()}-${randomUUID().slice(0, 6)}@renter.test`;
    const customer = await (await context.request.post(api('/api/customers'), { data: { firstName: 'Nina', lastName, email } })).json();
    const invoiceNumber = `INV-${randomUUID().slice(0, 6)}`;
    const invoice = await (
      await context.request.post(api('/api/invoices'), { data: { invoiceNumber, customerId: customer.id, amount, dueDate: '2026-12-01' } })
    ).json();
    expect((await context.request.post(api(`/api/invoices/${invoice.id}/send`))).status()).toBe(200);
    return { customerId: customer.id as string, email, invoiceNumber };
  }

  /**
   * Waits for the outbox to have sent the renter's message: a list opened while it is still pending
   * shows it as sent only at its next look, 5 s later.
   */
  async function delivered(email: string) {
    const status = async () => {
      const messages: Array<{ status: string }> = await (
        await context.request.get(`${product.baseUrl}/api/messages?search=${encodeURIComponent(email)}`)
      ).json();
      return messages[0]?.status;
    };
    await expect.poll(status, { ...eventually, interval: 100 }).toBe('sent');
  }

  it('lists the message sent for an invoice and opens its body in a drawer', async () => {
    const renter = await renterWithSentInvoice('Sentwell', '75.00');
    await delivered(renter.email);
    await page.goto(`${product.baseUrl}/messages`);
    await page.getByRole('heading', { name: 'Sent Messages' }).waitFor();
    const row = page.getByTestId('message-row').filter({ hasText: renter.email });
    await row.getByText('Sent', { exact: true }).waitFor(eventually);
    expect(await row.textContent()).toContain('Invoice issued');
    await row.getByRole('button', { name: `Invoice ${renter.invoiceNumber}: $75.00 due Dec 1, 2026` }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByTestId('message-body').getByText(`Your invoice ${renter.invoiceNumber} for $75.00 is due on Dec 1, 2026.`, { exact: false }).waitFor();
    expect(await drawer.textContent()).toContain(renter.email);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
  });

  it('lets the owner reword a message, and sends the next one in those words', async () => {
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const card = page.getByTestId('message-templates-card');
    await chooseSelectOption(page, card.getByLabel('Message'), 'Invoice issued', card.getByText('Renters may turn it off'));
    await card.getByLabel('Subject').fill('Bill {invoiceNumber} for {firstName}');
    await card.getByRole('button', { name: 'Save Message' }).click();
    await page.getByText('Message saved successfully').waitFor();
    await card.getByText('Your wording').waitFor();

    const next = await renterWithSentInvoice('Reworded', '9.99');
    await page.getByRole('link', { name: 'Sent Messages' }).click();
    // The list this tab read earlier is kept as read (the console's lists do not go stale by
    // themselves): the owner searches for the renter, which asks the server.
    await page.getByLabel('Search messages').fill(next.email);
    await page.getByLabel('Search messages').press('Enter');
    await page
      .getByTestId('message-row')
      .filter({ hasText: next.email })
      .getByRole('button', { name: `Bill ${next.invoiceNumber} for Nina` })
      .waitFor(eventually);
  });

  it("keeps a renter's message choices on their page, with the legal notices always sent and the pre-lien letter", async () => {
    const renter = await renterWithSentInvoice('Chooser', '12.00');
    await page.goto(`${product.baseUrl}/customers/${renter.customerId}`);
    await page.getByRole('tab', { name: 'Messages' }).click();
    const card = page.getByTestId('message-preferences-card');
    await card
      .getByText(
        'Always sent (notices the law requires): Autopay failed, Late notice, Lockout notice, Pre-lien notice, Rent change notice, Protection plan enrolment.',
      )
      .waitFor();
    const invoices = card.getByRole('switch', { name: 'Invoice issued' });
    expect(await invoices.getAttribute('aria-checked')).toBe('true');
    await invoices.click();
    await page.getByText('Message choices saved').waitFor();
    await expect.poll(() => invoices.getAttribute('aria-checked')).toBe('false');
    const saved = await (await context.request.get(`${product.baseUrl}/api/customers/${renter.customerId}/message-preferences`)).json();
    expect(saved.optOuts).toEqual(['invoice_issued']);
    // The renter's own messages are listed under their choices.
    await page.getByTestId('message-row').filter({ hasText: renter.invoiceNumber }).waitFor(eventually);
    expect(await page.getByRole('link', { name: 'Pre-lien letter (PDF)' }).getAttribute('href')).toBe(
      `/api/customers/${renter.customerId}/pre-lien-letter.pdf`,
    );
    await page.close();
  });
});
