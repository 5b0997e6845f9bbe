import { MerchandiseItem, MerchandiseQuote, MerchandiseSale } from '@storage/contracts/merchandise';
import { answer, refuse } from '@storage/testing/component-api';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { MerchandiseCard } from '../../src/features/merchandise/components/merchandise-card.tsx';
import { SellItemsButton } from '../../src/features/merchandise/components/sell-items-button.tsx';
import { FACILITIES, fill, type RenderOptions, renderConsole } from './render.tsx';

// Merchandise in the console: the Sell Items dialog on a customer's page (items of the renter's
// facility, the lines, tax and total as the server quotes them, the sale under an Idempotency-Key)
// and the Merchandise card in Settings (prices, taxable, stock with a low-stock warning; changes
// for owners and managers only).

const facilityId = FACILITIES[0]!.id;
const customerId = '0f1e2d3c-4b5a-4697-8887-766554433221';
const lock: MerchandiseItem = {
  id: 'a1b2c3d4-0000-4000-8000-000000000001',
  facilityId,
  name: 'Disc lock',
  price: '24.99',
  taxable: true,
  stock: 5,
  active: true,
};
const box: MerchandiseItem = {
  id: 'a1b2c3d4-0000-4000-8000-000000000002',
  facilityId,
  name: 'Small box',
  price: '2.50',
  taxable: true,
  stock: 2,
  active: true,
};
const fee: MerchandiseItem = {
  id: 'a1b2c3d4-0000-4000-8000-000000000003',
  facilityId,
  name: 'Lock cut fee',
  price: '35.00',
  taxable: false,
  stock: null,
  active: true,
};
const retired: MerchandiseItem = {
  id: 'a1b2c3d4-0000-4000-8000-000000000004',
  facilityId,
  name: 'Old tape',
  price: '3.00',
  taxable: true,
  stock: 9,
  active: false,
};
const catalogue = (items: MerchandiseItem[]) => answer('get', `/api/facilities/${facilityId}/merchandise`, z.array(MerchandiseItem), items);
const quotePath = `/api/facilities/${facilityId}/merchandise-quote`;

describe('Sell Items', () => {
  async function open(api: RenderOptions['api'] = []) {
    const onSold = vi.fn();
    const rendered = renderConsole(<SellItemsButton customerId={customerId} facilityId={facilityId} onSold={onSold} />, {
      path: `/customers/${customerId}`,
      api: [catalogue([lock, box, fee, retired]), ...(api ?? [])],
    });
    await rendered.user.click(await screen.findByRole('button', { name: 'Sell Items' }));
    const dialog = within(await screen.findByRole('dialog'));
    return { ...rendered, dialog, onSold };
  }

  it("offers the facility's items still sold, shows each line, the tax and the total, and sells once under one key", async () => {
    const quote = answer('get', quotePath, MerchandiseQuote, {
      lines: [
        { kind: 'merchandise', description: 'Disc lock × 2', amount: '49.98', periodStart: null, periodEnd: null },
        { kind: 'tax', description: 'Sales tax 8.875% on Disc lock × 2', amount: '4.44', periodStart: null, periodEnd: null },
      ],
      total: '54.42',
    });
    const sold = answer('post', `/api/customers/${customerId}/merchandise-sales`, MerchandiseSale, {
      saleId: 'b1b2c3d4-0000-4000-8000-000000000001',
      customerId,
      invoiceId: 'c1b2c3d4-0000-4000-8000-000000000001',
      invoiceNumber: 'MER-202611-ABCDEF012345',
      total: '54.42',
    });
    const { user, dialog, onSold } = await open([quote, sold]);
    await user.click(await dialog.findByLabelText('Item 1'));
    expect(screen.queryByTitle('Old tape · $3.00 · 9 left')).toBeNull();
    screen.getByTitle('Lock cut fee · $35.00');
    await user.click(await screen.findByTitle('Disc lock · $24.99 · 5 left'));
    await fill(user, dialog.getByLabelText('Quantity 1'), '2');

    const shown = within(await dialog.findByTestId('sale-quote'));
    await shown.findByText('Sales tax 8.875% on Disc lock × 2');
    shown.getByText('$49.98');
    shown.getByText('$4.44');
    expect(shown.getByTestId('sale-total').textContent).toBe('$54.42');
    // The quote of one lock answers the same: what matters is that the two are quoted.
    await waitFor(() => expect(quote.sent.at(-1)!.search.get('lines')).toBe(`${lock.id}:2`));

    await user.click(dialog.getByRole('button', { name: 'Sell Items' }));
    await screen.findByText('Items sold: invoice MER-202611-ABCDEF012345 for $54.42');
    expect(sold.sent).toHaveLength(1);
    expect(sold.sent[0]!.body).toEqual({ facilityId, lines: [{ itemId: lock.id, quantity: 2 }] });
    expect(sold.sent[0]!.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(onSold).toHaveBeenCalled();
  });

  it('says what is missing before anything is sent', async () => {
    const sold = answer('post', `/api/customers/${customerId}/merchandise-sales`, MerchandiseSale, {
      saleId: 'b1b2c3d4-0000-4000-8000-000000000002',
      customerId,
      invoiceId: 'c1b2c3d4-0000-4000-8000-000000000002',
      invoiceNumber: 'MER-1',
      total: '1.00',
    });
    const { user, dialog } = await open([sold]);
    await dialog.findByLabelText('Item 1');
    await user.click(dialog.getByRole('button', { name: 'Sell Items' }));
    await dialog.findByText('Item is required');
    expect(sold.sent).toHaveLength(0);
  });

  it("shows the server's refusal when the stock ran out meanwhile", async () => {
    const quote = answer('get', quotePath, MerchandiseQuote, {
      lines: [{ kind: 'merchandise', description: 'Small box × 2', amount: '5.00', periodStart: null, periodEnd: null }],
      total: '5.00',
    });
    const refused = refuse('post', `/api/customers/${customerId}/merchandise-sales`, 409, { message: 'Not enough Small box in stock: only 1 left' });
    const { user, dialog, onSold } = await open([quote, refused]);
    await user.click(await dialog.findByLabelText('Item 1'));
    await user.click(await screen.findByTitle('Small box · $2.50 · 2 left'));
    await fill(user, dialog.getByLabelText('Quantity 1'), '2');
    await dialog.findByTestId('sale-total');
    await user.click(dialog.getByRole('button', { name: 'Sell Items' }));
    await screen.findByText('Failed to sell the items');
    screen.getByText('Not enough Small box in stock: only 1 left');
    expect(onSold).not.toHaveBeenCalled();
  });
});

describe('the Merchandise card', () => {
  const render = (role: 'owner' | 'manager' | 'clerk' | 'auditor', api: RenderOptions['api'] = []) =>
    renderConsole(<MerchandiseCard canChange={role === 'owner' || role === 'manager'} />, {
      role,
      path: `/settings?facility=${facilityId}`,
      api: [catalogue([lock, box, fee, retired]), ...api],
    });
  const rows = async () => (await screen.findAllByTestId('merchandise-row')).map((row) => row.textContent);

  it('lists price, taxable and stock, warning of low stock and saying what is retired', async () => {
    render('owner');
    expect(await rows()).toEqual([
      expect.stringMatching(/^Disc lock\$24\.99Yes5Edit/),
      expect.stringMatching(/^Small box\$2\.50YesLow stock: 2Edit/),
      expect.stringMatching(/^Lock cut fee\$35\.00NoNot countedEdit$/),
      expect.stringMatching(/^Old tapeRetired\$3\.00Yes9Edit/),
    ]);
    expect(screen.getByText('Low stock: 2').closest('.ant-tag')).not.toBeNull();
  });

  it('shows an auditor and a clerk the list without any change control', async () => {
    for (const role of ['auditor', 'clerk'] as const) {
      const { unmount } = render(role);
      expect(await rows()).toHaveLength(4);
      expect(screen.queryByRole('button', { name: 'Add Item' })).toBeNull();
      expect(screen.queryByRole('button', { name: /^(Edit|Restock|Count) / })).toBeNull();
      unmount();
    }
  });

  it('adds an item, an empty stock meaning none to count', async () => {
    const added = answer('post', `/api/facilities/${facilityId}/merchandise`, MerchandiseItem, {
      ...fee,
      id: 'a1b2c3d4-0000-4000-8000-000000000009',
      name: 'Admin fee',
    });
    const { user } = render('manager', [added]);
    await user.click(await screen.findByRole('button', { name: 'Add Item' }));
    const dialog = within(await screen.findByRole('dialog'));
    await fill(user, dialog.getByLabelText('Name'), 'Admin fee');
    await fill(user, dialog.getByLabelText('Price'), '1.005');
    await user.click(dialog.getByRole('button', { name: 'Add Item' }));
    await dialog.findByText('Price must be an amount with at most two decimals, e.g. 120.00');
    expect(added.sent).toHaveLength(0);
    await fill(user, dialog.getByLabelText('Price'), '15.00');
    await user.click(dialog.getByRole('switch'));
    await user.click(dialog.getByRole('button', { name: 'Add Item' }));
    await screen.findByText('Item added');
    expect(added.sent[0]!.body).toEqual({ name: 'Admin fee', price: '15.00', taxable: false, stock: null });
  });

  it('restocks and corrects a count with its reason', async () => {
    const restocked = answer('post', `/api/merchandise/${box.id}/restock`, MerchandiseItem, { ...box, stock: 12 });
    const counted = answer('post', `/api/merchandise/${box.id}/stock-count`, MerchandiseItem, { ...box, stock: 1 });
    const { user } = render('owner', [restocked, counted]);
    await user.click(await screen.findByRole('button', { name: 'Restock Small box' }));
    let dialog = within(await screen.findByRole('dialog'));
    await fill(user, dialog.getByLabelText('Quantity delivered'), '10');
    await user.click(dialog.getByRole('button', { name: 'Restock' }));
    await screen.findByText('Item restocked');
    expect(restocked.sent[0]!.body).toEqual({ quantity: 10 });

    await user.click(await screen.findByRole('button', { name: 'Count Small box' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Count Small box' }));
    await fill(user, dialog.getByLabelText('Counted on the shelf'), '1');
    await user.click(dialog.getByRole('button', { name: 'Save Count' }));
    await dialog.findByText('Reason is required');
    await fill(user, dialog.getByLabelText('Reason'), 'One crushed');
    await user.click(dialog.getByRole('button', { name: 'Save Count' }));
    await screen.findByText('Stock corrected');
    expect(counted.sent[0]!.body).toEqual({ stock: 1, reason: 'One crushed' });
  });
});
