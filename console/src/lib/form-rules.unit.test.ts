import { CreateCustomerRequest } from '@storage/contracts/customers';
import { CreateFacilityRequest } from '@storage/contracts/facilities';
import { CreateInvoiceRequest } from '@storage/contracts/invoices';
import { StartLeaseRequest } from '@storage/contracts/leases';
import { CreateLockRequest } from '@storage/contracts/locks';
import { BusinessProfile } from '@storage/contracts/settings';
import { AddStaffRequest } from '@storage/contracts/staff';
import { CreateUnitRequest } from '@storage/contracts/units';
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { contractRule, isOptional } from './form-rules.ts';

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
