import type { DomainEvent } from '@storage/contracts/events';
import { effectiveLeaseTerms, LeaseTerms, UpdateLeaseTermsRequest } from '@storage/contracts/lease-terms';
import { BUSINESS_SETTINGS_SCOPE } from '@storage/contracts/settings';
import { describe, expect, it } from 'vitest';
import { decideSettings } from './businessLogic.ts';
import { evolveSettings, initialSettingsState } from './settings.ts';

const stateOf = (...events: DomainEvent[]) => events.reduce(evolveSettings, initialSettingsState);
const business = { additionalTerms: ['The tenant must keep the unit locked with a lock of their own when not present.'] };
const own = { additionalTerms: ['No vehicles may be stored.', 'Keys are not kept by the office.'] };

describe('the lease terms that apply at a facility', () => {
  it('are its own, else the business’s, else none', () => {
    expect(effectiveLeaseTerms(business, own)).toEqual(own);
    expect(effectiveLeaseTerms(business, null)).toEqual(business);
    expect(effectiveLeaseTerms(null, null)).toEqual({ additionalTerms: [] });
    // A facility's own empty list is a choice of its own: no additional terms there, whatever the business's.
    expect(effectiveLeaseTerms(business, { additionalTerms: [] })).toEqual({ additionalTerms: [] });
  });

  it('are kept per scope: the event names the facility (null: the business)', () => {
    const saved = decideSettings({ type: 'UpdateLeaseTerms', scope: BUSINESS_SETTINGS_SCOPE, terms: business }, stateOf());
    expect(saved).toEqual([{ type: 'lease_terms_updated', data: { facilityId: null, terms: business } }]);
    expect(stateOf(...saved).leaseTerms).toEqual(business);
    const facility = decideSettings({ type: 'UpdateLeaseTerms', scope: 'a-facility-id', terms: own }, stateOf());
    expect(facility).toEqual([{ type: 'lease_terms_updated', data: { facilityId: 'a-facility-id', terms: own } }]);
  });

  it('records nothing when saved unchanged, and a facility going back to the business’s', () => {
    const saved: DomainEvent = { type: 'lease_terms_updated', data: { facilityId: 'a-facility-id', terms: own } };
    expect(decideSettings({ type: 'UpdateLeaseTerms', scope: 'a-facility-id', terms: own }, stateOf(saved))).toEqual([]);
    const follow = decideSettings({ type: 'UpdateLeaseTerms', scope: 'a-facility-id', terms: null }, stateOf(saved));
    expect(follow).toEqual([{ type: 'lease_terms_updated', data: { facilityId: 'a-facility-id', terms: null } }]);
    expect(stateOf(saved, ...follow).leaseTerms).toBeNull();
  });
});

describe('the lease terms contract', () => {
  it('trims each term and refuses an empty or too long one by its index, and more than 20', () => {
    expect(LeaseTerms.parse({ additionalTerms: ['  No smoking.  '] })).toEqual({ additionalTerms: ['No smoking.'] });
    const blank = LeaseTerms.safeParse({ additionalTerms: ['Fine.', '   '] });
    expect(blank.error?.issues[0]?.path).toEqual(['additionalTerms', 1]);
    const long = UpdateLeaseTermsRequest.safeParse({ facilityId: null, terms: { additionalTerms: ['a', 'b', 'c', 'x'.repeat(1001)] } });
    expect(long.error?.issues[0]?.path).toEqual(['terms', 'additionalTerms', 3]);
    expect(LeaseTerms.safeParse({ additionalTerms: Array.from({ length: 21 }, (_, i) => `Term ${i}`) }).success).toBe(false);
    expect(LeaseTerms.safeParse({ additionalTerms: Array.from({ length: 20 }, (_, i) => `Term ${i}`) }).success).toBe(true);
  });
});
