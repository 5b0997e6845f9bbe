import type { PortalContactPlace } from '@storage/contracts/portal';
import { describe, expect, it } from 'vitest';
import { statementSender } from './queries.ts';

// Who a renter's statement names at its top: the facility they rent at, not the business's number.

const business = { name: 'Riverside Self Storage', phone: '(800) 555-0199', email: 'office@example.com' };
const place = (name: string, phone: string | null): PortalContactPlace => ({ facilityId: null, name, phone, address: null, units: [] });

describe('the sender of a renter’s statement', () => {
  it('is their one facility, with its phone and the business’s email', () => {
    expect(statementSender({ places: [place('Tacoma Storage', '(253) 555-0101')], email: business.email }, business)).toEqual({
      name: 'Tacoma Storage',
      phone: '(253) 555-0101',
      email: business.email,
    });
  });

  it('is the business, with each facility’s phone, for a renter of two', () => {
    const places = [place('Portland Storage', '(503) 555-0100'), place('Quiet Storage', null), place('Tacoma Storage', '(253) 555-0101')];
    expect(statementSender({ places, email: business.email }, business)).toEqual({
      name: business.name,
      phone: 'Portland Storage (503) 555-0100   ·   Tacoma Storage (253) 555-0101',
      email: business.email,
    });
    expect(statementSender({ places: [place('A', null), place('B', null)], email: null }, business).phone).toBe(business.phone);
  });
});
