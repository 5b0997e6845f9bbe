import type { DomainEvent } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../commands/errors.ts';
import {
  evolveGatewayKey,
  gatewayKeyAggregate,
  gatewayKeyPrefix,
  hashGatewayKey,
  newGatewayKey,
  type RotateGatewayKey,
  rotateGatewayKey,
} from './gateway-keys.ts';

const facilityId = '0b6a4d0e-3f55-4d8e-9c1e-2a8f0c1d9e01';
const given = (...events: DomainEvent[]) => ({
  when: (command: RotateGatewayKey) => rotateGatewayKey(command, events.reduce(evolveGatewayKey, gatewayKeyAggregate.initial)),
});
const added: DomainEvent = {
  type: 'facility_added',
  data: { facilityId, name: 'North Yard', address: '1 Main St', phone: null, managerName: null, timeZone: 'UTC' },
};
const rotate = (keyHash: string): RotateGatewayKey => ({ type: 'RotateGatewayKey', facilityId, keyHash, keyPrefix: 'sgk_abcdefgh' });
const rotated = (keyHash: string): DomainEvent => ({ type: 'gateway_key_rotated', data: { facilityId, keyHash, keyPrefix: 'sgk_abcdefgh' } });

describe('rotate gateway key', () => {
  it('gives a facility its first key', () => {
    expect(given(added).when(rotate('h1'))).toEqual([rotated('h1')]);
  });

  it('replaces the key of a facility that has one', () => {
    expect(given(added, rotated('h1')).when(rotate('h2'))).toEqual([rotated('h2')]);
  });

  it('cannot give a key to a facility that does not exist', () => {
    expect(() => given().when(rotate('h1'))).toThrow(NotFoundError);
  });

  it('knows only the latest key', () => {
    const state = [added, rotated('h1'), rotated('h2')].reduce(evolveGatewayKey, gatewayKeyAggregate.initial);
    expect(state).toEqual({ facility: 'current', keyHash: 'h2' });
  });
});

describe('gateway key material', () => {
  it('makes a new random key each time, shown afterwards only by its prefix', () => {
    const [a, b] = [newGatewayKey(), newGatewayKey()];
    expect(a).not.toBe(b);
    expect(a).toMatch(/^sgk_[A-Za-z0-9_-]{43}$/);
    expect(gatewayKeyPrefix(a)).toBe(a.slice(0, 12));
  });

  it('hashes a key the same way every time, and two keys differently', () => {
    const key = newGatewayKey();
    expect(hashGatewayKey(key)).toBe(hashGatewayKey(key));
    expect(hashGatewayKey(key)).not.toBe(hashGatewayKey(newGatewayKey()));
    expect(hashGatewayKey(key)).not.toContain(key);
  });
});
