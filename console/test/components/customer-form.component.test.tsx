import { Customer } from '@storage/contracts/customers';
import { answer, refuse } from '@storage/testing/component-api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CustomerFormDialog } from '../../src/features/customers/components/customer-form-dialog.tsx';
import { graceHopper } from './customer-fixtures.ts';
import { FACILITIES, fill, type RenderOptions, renderConsole } from './render.tsx';

// The Add Customer form: its required fields and format messages as the screen words them, what it
// sends, and the server's refusal in the Error toast.

const riverside = FACILITIES[0]!;
const created: Customer = graceHopper({ facilityId: riverside.id });

function openForm(api: RenderOptions['api'] = []) {
  const onClose = vi.fn();
  // With a facility in scope the form starts on it.
  const rendered = renderConsole(<CustomerFormDialog open onClose={onClose} />, { path: `/customers?facility=${riverside.id}`, api });
  const dialog = () => within(screen.getByRole('dialog'));
  return { ...rendered, onClose, dialog };
}

describe('Add Customer form', () => {
  it('asks for the first name, last name and email before sending anything', async () => {
    const { user, dialog } = openForm();
    await screen.findByRole('dialog');
    await user.click(dialog().getByRole('button', { name: 'Add Customer' }));
    await dialog().findByText('First name is required');
    dialog().getByText('Last name is required');
    dialog().getByText('Email is required');
  });

  it('offers the standings staff choose, not Overdue, which follows the invoices', async () => {
    const { user, dialog } = openForm();
    await user.click(await dialog().findByLabelText('Status'));
    // The drawn choices (antd's listbox of role option holds only the few around the active one).
    await screen.findByTitle('Terminated');
    const choices = [...document.querySelectorAll('.ant-select-item-option')].map((option) => option.getAttribute('title'));
    expect(choices).toEqual(['Active', 'Inactive', 'Terminated']);
  });

  it('refuses an email that is not one, in the form', async () => {
    const { user, dialog } = openForm();
    await fill(user, await screen.findByLabelText('Email'), 'not-an-email');
    await user.click(dialog().getByRole('button', { name: 'Add Customer' }));
    await dialog().findByText('Email must be a valid email address');
  });

  it('sends the details with the facility in scope, says so and closes', async () => {
    const create = answer('post', '/api/customers', Customer, created);
    const { user, dialog, onClose } = openForm([create]);
    await fill(user, await screen.findByLabelText('First Name'), 'Grace');
    await fill(user, dialog().getByLabelText('Last Name'), 'Hopper');
    await fill(user, dialog().getByLabelText('Email'), 'grace.hopper@example.com');
    await fill(user, dialog().getByLabelText('Phone'), '555-0142');
    await dialog().findByText(riverside.name);
    await user.click(dialog().getByRole('button', { name: 'Add Customer' }));
    await screen.findByText('Customer created successfully');
    expect(create.sent).toHaveLength(1);
    expect(create.sent[0]!.body).toEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace.hopper@example.com',
      phone: '555-0142',
      address: '',
      emergencyContact: '',
      emergencyPhone: '',
      status: 'active',
      facilityId: riverside.id,
    });
    expect(onClose).toHaveBeenCalledOnce();
  });

  it("shows the server's refusal of a taken email in the Error toast and keeps the form open", async () => {
    const taken = refuse('post', '/api/customers', 409, { message: 'A customer with the email grace.hopper@example.com already exists', field: 'email' });
    const { user, dialog, onClose } = openForm([taken]);
    await fill(user, await screen.findByLabelText('First Name'), 'Grace');
    await fill(user, dialog().getByLabelText('Last Name'), 'Again');
    await fill(user, dialog().getByLabelText('Email'), 'grace.hopper@example.com');
    await user.click(dialog().getByRole('button', { name: 'Add Customer' }));
    await screen.findByText('Failed to create customer');
    screen.getByText('A customer with the email grace.hopper@example.com already exists');
    screen.getByText('Error');
    expect(onClose).not.toHaveBeenCalled();
  });
});
