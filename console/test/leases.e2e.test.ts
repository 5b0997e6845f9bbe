import type { Customer } from '@storage/contracts/customers';
import type { Facility } from '@storage/contracts/facilities';
import type { Lease, LeaseCounts, LeaseMoveOut } from '@storage/contracts/leases';
import type { Reservation } from '@storage/contracts/reservations';
import type { Unit } from '@storage/contracts/units';
import { animationsDone } from '@storage/testing/animations';
import { type ProductUnderTest, readDownload, startProductUnderTest } from '@storage/testing/browser';
import { confirmationToken } from '@storage/testing/online-reservations';
import { drawSignature } from '@storage/testing/signature';
import { startSmtpServer, type TestSmtpServer } from '@storage/testing/smtp';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chooseFacility, chooseSelectOption, DESKTOP, dismissToasts, horizontalOverflow, PHONE, signedInContext, visit } from './staff-browser.ts';
import { screenshotViewport } from './viewport-screenshot.ts';

// The Lease Agreements screen in Chromium on the demo data: the list as the spec draws it, a
// move-in through the dialog, the document and its PDF, the CSV export, and a move-out.

describe('Lease Agreements in Chromium', () => {
  let product: ProductUnderTest;
  /** Online reservations are confirmed from the link mailed to the email typed. */
  let smtp: TestSmtpServer;
  let page: Page;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    product = await startProductUnderTest({ seedDemo: true, config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}` } });
    // Signed in by the sign-in call (the form is driven in the files about it): one load of the console.
    const context = await signedInContext(product, DESKTOP, { acceptDownloads: true });
    page = await context.newPage();
    await page.goto(`${product.baseUrl}/`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  }, 240_000);
  afterAll(async () => {
    await product?.close();
    await smtp?.close();
  });
  beforeEach(async () => {
    // The last test's toast, under the pointer, would take this one's first click in the header.
    if (page) await dismissToasts(page);
  });

  const api = async <T>(path: string): Promise<T> => (await page.request.get(`${product.baseUrl}${path}`)).json() as Promise<T>;
  const cards = () => page.getByTestId('lease-card');
  const chooseOption = async (label: string, search: string, option: string) => {
    await page.getByRole('dialog').getByLabel(label, { exact: true }).click();
    await page.keyboard.type(search);
    // The list is searched on the server once typing pauses: until then it shows the previous
    // options, and a click on one of them may land while the list is being replaced.
    const options = page.locator('.ant-select-item-option').filter({ visible: true });
    await expect
      .poll(async () => {
        const texts = await options.allTextContents();
        return texts.length > 0 && texts.every((text) => text.includes(search));
      })
      .toBe(true);
    await options.filter({ hasText: option }).first().click();
  };

  /**
   * An active lease on the page, with no move-out scheduled, that started by its facility's today
   * (the demo's, or one moved in here on the browser's date, may start after it: a move-out on
   * its start day is then scheduled, not done), and its card.
   */
  const movableLease = async () => {
    // The search the tests before left (a unit number, one moved in here among them) shows too few.
    const search = page.getByLabel('Search leases');
    if ((await search.inputValue()) !== '') {
      const unfiltered = page.waitForResponse((response) => {
        const url = new URL(response.url());
        return url.pathname === '/api/leases' && !url.searchParams.get('search');
      });
      await search.fill('');
      await unfiltered;
    }
    await page.waitForLoadState('networkidle');
    for (const lease of await api<Lease[]>('/api/leases?status=active&pageSize=100')) {
      if (lease.moveOutDate !== null) continue;
      const { today } = await api<LeaseMoveOut>(`/api/leases/${lease.id}/move-out`);
      const card = cards().filter({ hasText: `Unit ${lease.unit.unitNumber} · ` });
      if (lease.startDate <= today && (await card.getByRole('button', { name: 'Move Out' }).count()) === 1) return { lease, card, today };
    }
    throw new Error('No active lease on the page to move out');
  };

  it('shows the leases with their count, tabs, filter and search', async () => {
    await page.getByRole('link', { name: 'Lease Agreements' }).first().click();
    await page.getByRole('heading', { name: 'Lease Agreements' }).waitFor();
    const counts = await api<LeaseCounts>('/api/leases/counts');
    expect(counts.all).toBeGreaterThan(0);
    await page.getByText(`Managing ${counts.all} lease agreements`).waitFor();
    await page.getByRole('tab', { name: `All (${counts.all})` }).waitFor();
    await page.getByRole('tab', { name: `Active (${counts.active})` }).waitFor();
    await page.getByRole('tab', { name: `Inactive (${counts.inactive})` }).waitFor();
    await cards().first().waitFor();

    const [newest] = await api<Lease[]>('/api/leases?pageSize=1');
    const first = cards().first();
    const text = await first.textContent();
    expect(text).toContain(`${newest!.customer.firstName} ${newest!.customer.lastName}`);
    expect(text).toContain(`Unit ${newest!.unit.unitNumber} · ${newest!.unit.size} · Building ${newest!.unit.building}`);
    expect(text).toContain(newest!.customer.email);
    expect(text).toContain(`${newest!.invoiceSummary.paid} paid`);
    expect(text).toContain(`${newest!.invoiceSummary.total} total`);
    await product.screenshot(page, 'leases-1440');

    await page.getByRole('tab', { name: /^Inactive/ }).click();
    await expect.poll(async () => new Set(await cards().getByTestId('lease-status').allTextContents())).toEqual(new Set(['Inactive']));
    await page.getByText('Inactive Only', { exact: true }).waitFor();

    await page.getByLabel('Lease status').click();
    await page
      .locator('.ant-select-item-option')
      .filter({ hasText: /^Active Only$/ })
      .click();
    await page.getByRole('tab', { name: /^Active/, selected: true }).waitFor();

    await page.getByLabel('Search leases').fill(`nobody-${Date.now()}`);
    await page.getByText('No Active Leases').waitFor();
    await page.getByRole('tab', { name: 'All (0)' }).click();
    await page.getByText('No Leases Found').waitFor();
    await page.getByText('Try adjusting your search terms').waitFor();
    await page.getByLabel('Search leases').fill('');
    await cards().first().waitFor();
  });

  it('moves a new customer in through the Move In dialog with a protection plan and a promotion, takes the payment in it, and has the lease signed at the desk', async () => {
    // A 10x10 or larger: the demo's "Half off 2 months" is offered at the desk for those.
    const available = await api<Unit[]>('/api/units?status=available&pageSize=100');
    const unit = available.find((u) => Number(u.size.split('x')[0]) * Number(u.size.split('x')[1]) >= 100);
    if (!unit) throw new Error('the demo has no available unit of 10x10 or larger');
    const facilities = await api<Facility[]>('/api/facilities');
    const facility = facilities.find((f) => f.id === unit!.facilityId) ?? facilities[0]!;
    // A renter added here owes nothing else, so the payment pays the move-in invoice.
    const customer = { firstName: 'Mona', lastName: 'Movein', email: `mona.movein.${Date.now()}@example.com` };
    await page.getByRole('button', { name: 'Move In' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'Start Date' });
    await dialog.getByText('Start Date').waitFor();
    await dialog.getByRole('button', { name: 'New customer' }).click();
    const adding = page.getByRole('dialog').filter({ hasText: 'Emergency Contact' });
    await adding.getByLabel('First Name').fill(customer.firstName);
    await adding.getByLabel('Last Name').fill(customer.lastName);
    await adding.getByLabel('Email').fill(customer.email);
    if ((await adding.getByLabel('Facility').inputValue()) === '' && (await adding.getByText('Choose a facility').count()) > 0) {
      // A click can land while the list is still opening and be lost: chosen until the field shows it.
      await chooseFacility(page, adding, facility.name);
    }
    await adding.getByRole('button', { name: 'Add Customer' }).click();
    await adding.waitFor({ state: 'hidden' });
    // The customer added is chosen in the Move In's picker.
    await dialog.getByText(`${customer.firstName} ${customer.lastName} · ${customer.email}`).waitFor();
    await chooseOption('Unit', unit!.unitNumber, unit!.unitNumber);
    expect(await dialog.getByLabel('Monthly Rate').inputValue()).toBe(unit!.monthlyRate);
    await dialog.getByLabel('Deposit').fill('50.00');
    // The quote follows the deposit typed, the plan and the promotion chosen: their lines, and what the renter pays today.
    const quote = dialog.getByRole('region', { name: 'What the renter pays at move-in' });
    await quote.getByText('Security deposit').waitFor();
    await chooseSelectOption(page, dialog.getByLabel('Protection Plan'), /^Standard/, quote.getByText(/^Protection plan Standard/).first());
    await chooseSelectOption(page, dialog.getByLabel('Promotion'), /^Half off 2 months/, quote.getByText(/^Half off 2 months on/).first());
    await quote.getByText('Due today').waitFor();
    expect(await quote.getByText(/^Next invoice: \$/).count()).toBe(1);
    // The payment starts at what the renter pays today, taken by check.
    const dueToday = (await quote.getByTestId('move-in-quote-total').textContent())!.replace('$', '').replace(/,/g, '');
    const payment = dialog.getByRole('region', { name: 'Payment at move-in' });
    expect(await payment.getByLabel('Take payment now').isChecked()).toBe(true);
    await expect.poll(() => payment.getByLabel('Amount').inputValue()).toBe(dueToday);
    await chooseSelectOption(page, payment.getByLabel('Method'), 'Check', payment.getByLabel('Check Number'));
    await payment.getByLabel('Check Number').fill('2051');
    await product.screenshot(page, 'leases-move-in-1440');
    await dialog.getByRole('button', { name: 'Move In' }).click();

    await page.getByText(/^Lease created; payment recorded: INV-/).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByLabel('Search leases').fill(unit!.unitNumber);
    const card = cards()
      .filter({ hasText: `${customer.firstName} ${customer.lastName}` })
      .filter({ hasText: `Unit ${unit!.unitNumber} ` });
    await card.waitFor();
    expect(await cards().first().textContent()).toBe(await card.textContent());
    const text = await card.textContent();
    expect(text).toContain(`${customer.firstName} ${customer.lastName}`);
    expect(text).toContain('Active');
    expect(text).toContain('$50.00');
    // Billed at once: the move-in invoice (and next month's rent too when the move-in falls within its issue days).
    expect(text).toMatch(/[12] total/);
    const newest = await api<{ description: string | null; status: string; dueDate: string }[]>(
      `/api/invoices?search=${encodeURIComponent(customer.email)}&sort=createdAt&order=desc&pageSize=5`,
    );
    expect(newest).toContainEqual(expect.objectContaining({ description: 'Move-in charges', status: 'paid' }));
    const [occupied] = await api<Unit[]>(`/api/units?search=${encodeURIComponent(unit!.unitNumber)}`);
    expect(occupied!.status).toBe('occupied');

    // The renter signs at the desk: the agreement has the plan and the promotion as addenda.
    await card.getByRole('button', { name: 'Sign at the Desk' }).click();
    const signing = page.getByRole('dialog', { name: 'Sign the Lease' });
    const agreement = (await signing.getByTestId('agreement-text').textContent())!;
    expect(agreement).toContain('== Protection Plan Addendum ==\nPlan: Standard');
    expect(agreement).toContain('== Promotion Addendum ==\nPromotion: Half off 2 months');
    await signing.getByLabel('Full Name').fill(`${customer.firstName} ${customer.lastName}`);
    await drawSignature(page, signing.getByTestId('signature-pad'));
    await signing.getByRole('button', { name: 'Sign' }).click();
    await signing.waitFor({ state: 'hidden' });
    await card.getByTestId('lease-signed').getByText(`Signed by ${customer.firstName} ${customer.lastName}`).waitFor();
  });

  it('moves a customer in with the optional Deposit left empty', async () => {
    const [customer] = await api<Customer[]>('/api/customers?pageSize=1&status=active');
    const [unit] = await api<Unit[]>('/api/units?status=available&pageSize=1');
    await page.getByRole('button', { name: 'Move In' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Start Date').waitFor();
    await chooseOption('Customer', customer!.email, customer!.email);
    await chooseOption('Unit', unit!.unitNumber, unit!.unitNumber);
    expect(await dialog.getByLabel('Deposit').inputValue()).toBe('');
    // No payment at move-in: the invoice is left to be paid.
    await dialog.getByLabel('Take payment now').uncheck();
    const created = page.waitForResponse((r) => r.url().endsWith('/api/leases') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Move In' }).click();
    expect((await created).status()).toBe(201);
    expect((await created).request().postDataJSON().depositAmount ?? null).toBeNull();
    await page.getByText('Lease created successfully').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByText(/Deposit must be/).count()).toBe(0);
  });

  it('shows the lease document and downloads it as a PDF', async () => {
    const card = cards().first();
    await card.getByRole('button', { name: 'View Document' }).click();
    const document = card.getByTestId('lease-document');
    await document.getByText('Storage Unit Lease Agreement').waitFor();
    for (const heading of ['Tenant Information', 'Unit Information', 'Lease Terms', 'Terms and Conditions', 'Signatures']) {
      await document.getByText(heading, { exact: true }).waitFor();
    }
    // The six generated from the billing settings, then the demo business's own.
    expect(await document.locator('ol > li').count()).toBe(7);
    expect(await document.locator('ol > li').last().textContent()).toBe('The tenant must keep the unit locked with a lock of their own when not present.');
    const text = await document.textContent();
    expect(text).toContain('Rent is due on the 1st of each month.');
    expect(text).toContain('late fee of $25.00');
    expect(text).toContain('Facility Manager');
    expect(text).toMatch(/Lease ID: [0-9a-f-]{36}/);
    expect(text).toContain('Generated: ');
    await product.screenshot(page, 'leases-document-1440');

    const [download] = await Promise.all([page.waitForEvent('download'), document.getByRole('link', { name: 'Download PDF' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^lease-.+\.pdf$/);
    const pdf = await readDownload(download);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    await card.getByRole('button', { name: 'Hide Document' }).click();
    await document.waitFor({ state: 'detached' });
  });

  it('exports the leases matching the filters as CSV', async () => {
    const unitNumber = await page.getByLabel('Search leases').inputValue();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export All' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^leases-\d{4}-\d{2}-\d{2}\.csv$/);
    const records = (await readDownload(download))
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(records[0]).toMatch(/^Lease ID,First Name,Last Name,Email,/);
    expect(records.length).toBeGreaterThan(1);
    expect(records.slice(1).every((record) => record.toLowerCase().includes(unitNumber.toLowerCase()))).toBe(true);
  });

  // Retried: inside the full suite (never alone, nor in a file-only run) the dialog's Move Out click
  // sometimes sends nothing; each attempt picks an active lease, so a retry tests the same thing.
  it('moves the customer out: the lease turns inactive', { retry: 2 }, async () => {
    // A retry starts where the attempt before stopped: its dialog may still be open over the cards.
    const left = page.getByRole('dialog');
    if (await left.isVisible()) {
      await page.keyboard.press('Escape');
      await left.waitFor({ state: 'hidden' });
    }
    // The CSV download before may still have the list refetching: act on a settled page.
    const { card } = await movableLease();
    await card.getByRole('button', { name: 'Move Out' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('End Date').waitFor();
    // The toast lasts a few seconds: wait for it (and the answer) from before the click, so a slow
    // test process cannot miss it.
    const ended = page.waitForResponse((response) => response.request().method() === 'POST' && /\/api\/leases\/[^/]+\/end$/.test(response.url()), {
      timeout: 15_000,
    });
    const toast = page.getByText('Lease ended successfully').waitFor({ timeout: 15_000 });
    // Awaited below; a rejection while the other is awaited must not count as unhandled.
    ended.catch(() => {});
    toast.catch(() => {});
    // A click on a dialog still sliding in can be lost: let it stand still first.
    await animationsDone(page);
    await dialog.getByRole('button', { name: 'Move Out' }).click();
    expect((await ended).status()).toBe(200);
    await toast;
    await card.getByTestId('lease-status').filter({ hasText: 'Inactive' }).waitFor();
    expect(await card.getByRole('button', { name: 'Move Out' }).count()).toBe(0);
  });

  it('schedules a move-out on a later day: the lease stays active and says when it moves out, until staff cancel it', async () => {
    const { lease, card, today } = await movableLease();
    const later = new Date(Date.parse(`${today}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);

    await card.getByRole('button', { name: 'Move Out' }).click();
    const dialog = page.getByRole('dialog');
    const endDate = dialog.getByLabel('End Date');
    await endDate.waitFor();
    // The facility's today, whatever the browser's.
    expect(await endDate.inputValue()).toBe(today);
    await endDate.fill(later);
    await dialog.getByText('Until then the lease stays active').waitFor();
    await animationsDone(page);
    await dialog.getByRole('button', { name: 'Schedule Move-Out' }).click();
    await page.getByText('Move-out scheduled').waitFor({ timeout: 15_000 });
    await dialog.waitFor({ state: 'hidden' });

    const scheduled = card.getByTestId('scheduled-move-out');
    const shown = new Date(`${later}T00:00:00`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
    await scheduled.getByText(`Moves out on ${shown}`).waitFor();
    expect(await card.getByTestId('lease-status').textContent()).toBe('Active');
    expect((await api<LeaseMoveOut>(`/api/leases/${lease.id}/move-out`)).scheduled).toMatchObject({ endDate: later });

    await scheduled.getByRole('button', { name: 'Cancel Move-Out' }).click();
    // A click on a confirmation still opening can be lost, as one on a dialog sliding in.
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Cancel Move-Out' }).waitFor();
    await animationsDone(page);
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Cancel Move-Out' }).click();
    await page.getByText('Move-out cancelled').waitFor({ timeout: 15_000 });
    await scheduled.waitFor({ state: 'detached' });
    expect((await api<LeaseMoveOut>(`/api/leases/${lease.id}/move-out`)).scheduled).toBeNull();
    expect(await card.getByTestId('lease-status').textContent()).toBe('Active');
  });

  it('fits a phone screen, with the document open', async () => {
    const phone = await signedInContext(product, PHONE);
    const small = await phone.newPage();
    await small.goto(`${product.baseUrl}/leases`);
    await small.getByTestId('lease-card').first().waitFor();
    await screenshotViewport(small, 'leases-390');
    await small.getByTestId('lease-card').first().getByRole('button', { name: 'View Document' }).click();
    const terms = small.getByTestId('lease-document').getByText('Terms and Conditions');
    await terms.waitFor();
    await terms.scrollIntoViewIfNeeded();
    await screenshotViewport(small, 'leases-document-390');
    await small.getByRole('button', { name: 'Move In' }).click();
    await small.getByRole('dialog').getByText('Start Date').waitFor();
    await screenshotViewport(small, 'leases-move-in-390');
    expect(await horizontalOverflow(small)).toBe(0);
    await phone.close();
  }, 60_000);

  it('shows 6 placeholder cards while loading and the error card when the leases cannot be loaded', async () => {
    // In the open console, as a user comes to the screen from another: a list not asked for yet
    // in this page (a search of its own), so nothing cached stands in for its loading.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const failing = async (route: Route) => {
      await held;
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Internal Server Error"}' });
    };
    await page.route('**/api/leases?*', failing);
    try {
      await visit(page, product, '/');
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await visit(page, product, `/leases?search=${encodeURIComponent(`not-asked-yet-${Date.now()}`)}`);
      await page.getByTestId('lease-placeholder').first().waitFor();
      expect(await page.getByTestId('lease-placeholder').count()).toBe(6);
      release();
      await page.getByText('Error Loading Leases').waitFor();
      await page.getByText('Unable to load lease data. Please try refreshing the page.').waitFor();
    } finally {
      release();
      await page.unroute('**/api/leases?*', failing);
    }
  }, 60_000);

  it('shows an online reservation made with an existing customer’s email as a pending contact, and links it when staff choose', async () => {
    const [customer] = await api<Customer[]>('/api/customers?pageSize=1&status=active');
    const [unit] = await api<Unit[]>('/api/units?status=available&pageSize=1');
    const moveInDate = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    // A last name of its own, so a retried attempt finds its own row, not the one before's.
    const lastName = `Pending ${Date.now().toString(36)}`;
    const asked = await page.request.post(`${product.baseUrl}/api/public/reservations`, {
      data: { unitId: unit!.id, customerData: { firstName: 'Pat', lastName, email: customer!.email, phone: '555-0142', moveInDate } },
    });
    expect(asked.status()).toBe(201);
    // The visitor confirms from the link mailed to the email they typed.
    const submitted = await page.request.post(`${product.baseUrl}/api/public/reservations/confirm`, {
      data: { token: confirmationToken(smtp, customer!.email) },
    });
    expect(submitted.status()).toBe(200);
    // The anonymous visitor learns nothing about the customer who holds that email.
    const receipt = (await submitted.json()) as { reservationId: string };
    expect(Object.keys(receipt).sort()).toEqual(['moveInDate', 'reservationId', 'unitId']);
    // What the screen will draw, as the API answers it: a contact not attached to anyone.
    const listed = async () => {
      const newest = await api<Reservation[]>('/api/reservations?sort=submittedAt&order=desc&pageSize=20');
      const r = newest.find(({ id }) => id === receipt.reservationId);
      return r && { status: r.status, customerId: r.customerId, matched: r.matchedCustomer?.id };
    };
    await expect.poll(listed).toEqual({ status: 'submitted', customerId: null, matched: customer!.id });

    await page.goto(`${product.baseUrl}/leases`);
    const row = page.locator('tr', { hasText: `Pat ${lastName}` });
    await row.waitFor();
    const name = `${customer!.firstName} ${customer!.lastName}`;
    await row.getByText('Pending contact').waitFor();
    await row.getByText(`Matches existing customer ${name}`).waitFor();
    await row.getByRole('button', { name: 'Convert as new customer' }).waitFor();
    await product.screenshot(page, 'leases-reservation-pending-1440');
    await row.getByRole('button', { name: `Link to ${name}` }).click();
    // The Convert dialog quotes the move-in before staff confirm it.
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('move-in-quote-total').waitFor();
    await dialog.getByRole('button', { name: 'Convert to lease' }).click();
    await page.getByText('Reservation converted to a lease').waitFor({ timeout: 60_000 });
    await row.waitFor({ state: 'detached' });
    const leases = await api<Lease[]>(`/api/leases?search=${encodeURIComponent(unit!.unitNumber)}`);
    const lease = leases.find((l) => l.unit.id === unit!.id);
    expect(lease?.customer.id).toBe(customer!.id);
  }, 60_000);
});
