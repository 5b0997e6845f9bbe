import type { DomainEvent } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '../commands/errors.ts';
import {
  activateGateCode,
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
const suspended = (reason: 'lockout' | 'move_out' | 'unsigned'): DomainEvent => ({
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

  describe('held until the lease is signed', () => {
    const held: DomainEvent = { type: 'gate_code_assigned', data: { ...lease, code: '1234567', reason: 'move_in', awaitingSignature: true } };
    const activated: DomainEvent = { type: 'gate_code_activated', data: { leaseId: lease.leaseId, customerId: lease.customerId } };

    it('opens nothing until the signature, then opens the gate', () => {
      expect(assignGateCode(lease, '1234567', state(), true)).toEqual([held]);
      expect(state(held)).toMatchObject({ suspended: 'unsigned', awaitingSignature: true });
      expect(activateGateCode(state(held))).toEqual([activated]);
      expect(state(held, activated)).toMatchObject({ suspended: null, awaitingSignature: false });
      expect(activateGateCode(state(held, activated))).toEqual([]);
      expect(activateGateCode(state(assigned))).toEqual([]);
    });

    it('a lockout holds it too: signing while locked out opens nothing, and the lockout’s end leaves it waiting when still unsigned', () => {
      expect(suspendGateCode('lockout', state(held))).toEqual([suspended('lockout')]);
      const lockedOut = state(held, suspended('lockout'));
      // The lockout ends before the signature: back to waiting for it.
      expect(reinstateGateCode('Paid', lockedOut)).toEqual([suspended('unsigned')]);
      expect(state(held, suspended('lockout'), suspended('unsigned'))).toMatchObject({ suspended: 'unsigned', awaitingSignature: true });
      // Signed during the lockout: still shut, and opened by the lockout's end.
      const signedWhileLocked = state(held, suspended('lockout'), activated);
      expect(signedWhileLocked).toMatchObject({ suspended: 'lockout', awaitingSignature: false });
      expect(reinstateGateCode('Paid', signedWhileLocked)).toEqual([
        { type: 'gate_code_reinstated', data: { leaseId: lease.leaseId, customerId: lease.customerId, reason: 'Paid' } },
      ]);
    });

    it('a rotation keeps it waiting; the move-out ends it', () => {
      const [rotated] = rotateGateCode('0000002', state(held));
      expect(state(held, rotated!)).toMatchObject({ code: '0000002', suspended: 'unsigned', awaitingSignature: true });
      expect(suspendGateCode('move_out', state(held))).toEqual([suspended('move_out')]);
      expect(state(held, suspended('move_out'), activated)).toMatchObject({ suspended: 'move_out' });
    });
  });
});
