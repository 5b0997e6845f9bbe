import type { DomainEvent } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '../commands/errors.ts';
import {
  assignGateCode,
  drawGateCode,
  evolveGateCode,
  type GateCodeState,
  gateCodeAggregate,
  reinstateGateCode,
  rotateGateCode,
  suspendGateCode,
} from './gate-codes.ts';

const lease = { leaseId: '11111111-1111-4111-8111-111111111111', customerId: '22222222-2222-4222-8222-222222222222', facilityId: null };
const assigned: DomainEvent = { type: 'gate_code_assigned', data: { ...lease, code: '1234567', reason: 'move_in' } };
const state = (...events: DomainEvent[]): GateCodeState => events.reduce(evolveGateCode, gateCodeAggregate.initial);
const suspended = (reason: 'lockout' | 'move_out'): DomainEvent => ({
  type: 'gate_code_suspended',
  data: { leaseId: lease.leaseId, customerId: lease.customerId, reason },
});

describe('gate codes', () => {
  it('draws 7 digits', () => {
    for (let i = 0; i < 200; i++) expect(drawGateCode()).toMatch(/^\d{7}$/);
  });

  it('assigns a code once per lease', () => {
    expect(assignGateCode(lease, '7654321', state())).toEqual([{ type: 'gate_code_assigned', data: { ...lease, code: '7654321', reason: 'move_in' } }]);
    expect(assignGateCode(lease, '7654321', state(assigned))).toEqual([]);
  });

  it('suspends for a lockout once, and a lockout never overrides a move-out', () => {
    expect(suspendGateCode('lockout', state(assigned))).toEqual([suspended('lockout')]);
    expect(suspendGateCode('lockout', state(assigned, suspended('lockout')))).toEqual([]);
    expect(suspendGateCode('lockout', state(assigned, suspended('move_out')))).toEqual([]);
    expect(suspendGateCode('move_out', state(assigned, suspended('lockout')))).toEqual([suspended('move_out')]);
    expect(suspendGateCode('lockout', state())).toEqual([]);
  });

  it("reinstates only a lockout's suspension", () => {
    expect(reinstateGateCode('Paid', state(assigned, suspended('lockout')))).toEqual([
      { type: 'gate_code_reinstated', data: { leaseId: lease.leaseId, customerId: lease.customerId, reason: 'Paid' } },
    ]);
    expect(reinstateGateCode('Paid', state(assigned))).toEqual([]);
    expect(reinstateGateCode('Paid', state(assigned, suspended('move_out')))).toEqual([]);
  });

  it('rotates to a new code that stays suspended while a lockout lasts; refuses no code and an ended lease', () => {
    const [rotated] = rotateGateCode('0000001', state(assigned, suspended('lockout')));
    expect(rotated).toEqual({ type: 'gate_code_assigned', data: { ...lease, code: '0000001', reason: 'rotated' } });
    expect(state(assigned, suspended('lockout'), rotated!)).toMatchObject({ code: '0000001', suspended: 'lockout' });
    expect(() => rotateGateCode('0000001', state())).toThrow(NotFoundError);
    expect(() => rotateGateCode('0000001', state(assigned, suspended('move_out')))).toThrow(ConflictError);
  });
});
