import { CreateCustomerRequest } from '@storage/contracts/customers';
import { CreateFacilityRequest } from '@storage/contracts/facilities';
import { CreateInvoiceRequest } from '@storage/contracts/invoices';
import { StartLeaseRequest } from '@storage/contracts/leases';
import { CreateLockRequest } from '@storage/contracts/locks';
import { BusinessProfile } from '@storage/contracts/settings';
import { AddStaffRequest } from '@storage/contracts/staff';
import { CreateUnitRequest } from '@storage/contracts/units';
import { ApiError } from '@storage/web-client/api';
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { contractRule, isOptional, refusalOfField } from './form-rules.ts';

// Every console form checks its fields with contractRule against these request schemas.
const FORMS = {
  'Add Customer': CreateCustomerRequest.shape,
  'Add Unit': CreateUnitRequest.shape,
  'Move In': StartLeaseRequest.shape,
  'Create Invoice': CreateInvoiceRequest.shape,
  'Add Lock': CreateLockRequest.shape,
  'Add Facility': CreateFacilityRequest.shape,
  'Add Staff': AddStaffRequest.shape,
  'Business Profile': BusinessProfile.shape,
} satisfies Record<string, Record<string, ZodType>>;

async function passes(schema: ZodType, value: unknown): Promise<boolean> {
  const rule = contractRule('Field', schema) as { validator: (rule: unknown, value: unknown) => Promise<void> };
  return rule.validator({}, value).then(
    () => true,
    () => false,
  );
}

describe('contractRule on every console form', () => {
  for (const [form, fields] of Object.entries(FORMS)) {
    for (const [name, schema] of Object.entries(fields as Record<string, ZodType>)) {
      if (isOptional(schema)) {
        it(`${form}: the optional ${name} may be left empty`, async () => {
          for (const empty of [undefined, null, '', '   ']) expect(await passes(schema, empty), JSON.stringify(empty)).toBe(true);
        });
      } else {
        it(`${form}: the required ${name} may not be left empty`, async () => {
          expect(await passes(schema, undefined)).toBe(false);
        });
      }
    }
  }

  it('Move In: a Deposit left empty passes, a bad one is refused with the field named', async () => {
    expect(await passes(StartLeaseRequest.shape.depositAmount, null)).toBe(true);
    const rule = contractRule('Deposit', StartLeaseRequest.shape.depositAmount) as { validator: (rule: unknown, value: unknown) => Promise<void> };
    await expect(rule.validator({}, '12.345')).rejects.toThrow(/^Deposit /);
  });
});

describe('a refusal shown under its field', () => {
  const labels = { password: 'Temporary password' };
  const refusal = (status: number, body: object | string) => new ApiError(status, 'Bad Request', typeof body === 'string' ? body : JSON.stringify(body));

  it("says the server's reason after the field's label", () => {
    const weak = refusal(400, { message: 'password: is too easy to guess: This is a heavily used password.', field: 'password' });
    expect(refusalOfField(weak, labels)).toEqual({ field: 'password', message: 'Temporary password is too easy to guess: This is a heavily used password.' });
  });

  it('leaves alone a refusal of another field, one naming none, another status and a body that is not JSON', () => {
    expect(refusalOfField(refusal(400, { message: 'email: must be an email', field: 'email' }), labels)).toBeNull();
    expect(refusalOfField(refusal(400, { message: 'Unknown field: x' }), labels)).toBeNull();
    expect(refusalOfField(refusal(409, { message: 'password: taken', field: 'password' }), labels)).toBeNull();
    expect(refusalOfField(refusal(400, 'Bad Request'), labels)).toBeNull();
    expect(refusalOfField(new Error('offline'), labels)).toBeNull();
  });
});
