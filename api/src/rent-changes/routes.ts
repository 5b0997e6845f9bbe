import { streams } from '@storage/contracts/events';
import {
  BulkRentChangeRequest,
  CancelRentChangeRequest,
  LeaseRentChanges,
  RentChange,
  RentChangePlan,
  RentChangeRequest,
  RentChangeTerms,
  RentChangeTermsQuery,
} from '@storage/contracts/rent-changes';
import { derivedId } from '@storage/domain/commands/derived-id';
import { DomainRuleError, NotFoundError } from '@storage/domain/commands/errors';
import { type CommandContext, loadAggregate } from '@storage/domain/commands/handle';
import { facilityAggregate } from '@storage/domain/facilities/facility';
import { earliestLeaseRentChangeDate, earliestRentChangeDate } from '@storage/domain/leases/businessLogic';
import { leaseAggregate } from '@storage/domain/leases/lease';
import { bulkRentChangeId, cancelRentChange, rentChangeCalendar, scheduleBulkRentChanges, scheduleRentChange } from '@storage/domain/leases/rent-changes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { IdParams } from '../http/params.ts';
import { empty, errorAnswer, json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { ValidationError } from '../http/validate.ts';
import { latestBilledThrough, leaseRentChanges, planRentChanges, totalsOf } from './queries.ts';

const ChangeParams = z.strictObject({ id: z.uuid(), changeId: z.uuid() });

export async function rentChangeRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Rent changes', access: 'staff' });
  // Rents are the owner's and the manager's to change.
  const pricing = { roles: ['owner', 'manager'] } as const;

  /** The terms of a new change noticed today at `facilityId`, from the first day the lease (or every lease) of `after` takes. */
  async function termsOf(
    ctx: CommandContext,
    facilityId: string | null,
    after: { startDate: string | null; billedThrough: string | null },
  ): Promise<RentChangeTerms> {
    const { today, noticeDays } = await rentChangeCalendar(ctx, facilityId);
    return { today, noticeDays, earliestEffectiveDate: earliestLeaseRentChangeDate(today, noticeDays, after) };
  }

  /** The terms of a new change of this lease (from its stream); or 404. */
  async function leaseTerms(ctx: CommandContext, leaseId: string): Promise<RentChangeTerms> {
    const { state } = await loadAggregate(deps.store, streams.lease(leaseId), leaseAggregate);
    if (state.status === 'none' || state.status === 'abandoned') throw new NotFoundError('Lease not found');
    return termsOf(ctx, state.terms.facilityId, { startDate: state.terms.startDate, billedThrough: state.billedThrough });
  }

  /** A facility's terms for a bulk change: from the first day every active lease of it takes; and how far its rent is invoiced. */
  async function facilityTerms(ctx: CommandContext, facilityId: string): Promise<{ terms: RentChangeTerms; billedThrough: string | null }> {
    const billedThrough = await latestBilledThrough(deps.pool, facilityId);
    return { terms: await termsOf(ctx, facilityId, { startDate: null, billedThrough }), billedThrough };
  }

  const readContext = (request: FastifyRequest): CommandContext => commandContext(deps, request);

  app.get(
    '/api/leases/:id/rent-changes',
    {
      schema: {
        summary: "A lease's rent changes",
        description:
          "Every change scheduled on the lease (pending, in effect or cancelled; newest effective date first), and the earliest effective date a new one may have: after the notice days, the lease's start and the rent already invoiced.",
        params: IdParams,
        response: { 200: json('The changes and the terms of a new one', LeaseRentChanges), 404: errorAnswer('No such lease') },
      },
    },
    async (request) => {
      const terms = await leaseTerms(readContext(request), request.params.id);
      return { terms, changes: await leaseRentChanges(deps.pool, request.params.id, terms.today) };
    },
  );

  app.post(
    '/api/leases/:id/rent-changes',
    {
      config: pricing,
      schema: {
        summary: 'Schedule a rent change',
        description:
          "A new monthly rate from effectiveDate. The notice is sent today (the facility's date); the effective date must be at least the billing settings' rentChangeNoticeDays (30 by default) after it, and after what is already invoiced. Each rent period that starts on or after it bills the new rate. One pending change per lease (409), active leases only (409). With an Idempotency-Key, a repeat schedules nothing twice.",
        params: IdParams,
        body: RentChangeRequest,
        response: {
          201: json('The change, pending', RentChange),
          404: errorAnswer('No such lease'),
          409: errorAnswer('A change is pending already, or the lease ended'),
        },
      },
    },
    async (request, reply) => {
      const claim = request.idempotency;
      const changeId = claim ? derivedId('rent-change', request.params.id, claim.scope, claim.key) : undefined;
      const ctx = commandContext(deps, request);
      const result = await scheduleRentChange(ctx, request.params.id, request.body, changeId);
      if (result.position) await deps.afterAppend(result.position);
      if (result.state.status !== 'active' && result.state.status !== 'ended') throw new Error('A scheduled change has no lease');
      const { today } = await rentChangeCalendar(ctx, result.state.terms.facilityId);
      const shown = (await leaseRentChanges(deps.pool, request.params.id, today)).find((c) => c.id === result.changeId);
      if (shown) return reply.status(201).send(shown);
      // The read model is still behind after the bounded wait: the change as the lease's stream knows it.
      const { changeId: id, cancelled, ...fields } = result.state.rentChanges.find((c) => c.changeId === result.changeId)!;
      const status = cancelled ? 'cancelled' : fields.effectiveDate <= today ? 'in_effect' : 'pending';
      const customerId = result.state.terms.customerId;
      return reply
        .status(201)
        .send({ id, leaseId: request.params.id, customerId, ...fields, status, cancelReason: null, createdAt: ctx.now.toISOString() } satisfies RentChange);
    },
  );

  app.delete(
    '/api/leases/:id/rent-changes/:changeId',
    {
      config: pricing,
      schema: {
        summary: 'Cancel a rent change',
        description: 'Cancels a change that has not taken effect (409 once it has), with an optional reason. Cancelling it again records nothing.',
        params: ChangeParams,
        body: CancelRentChangeRequest,
        response: { 204: empty('Cancelled'), 404: errorAnswer('No such lease or change'), 409: errorAnswer('The change took effect already') },
      },
    },
    async (request, reply) => {
      const { id, changeId } = request.params;
      const result = await cancelRentChange(commandContext(deps, request), id, changeId, request.body.reason ?? 'Cancelled by staff');
      if (result.position) await deps.afterAppend(result.position);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/rent-changes/terms',
    {
      schema: {
        summary: 'Rent change terms of a facility',
        description:
          "Today in the facility's zone, its notice days and the earliest effective date a bulk change noticed today may have: after the notice days and after the rent already invoiced for any of its active leases (in a month's last days the next month is).",
        querystring: RentChangeTermsQuery,
        response: { 200: json('The terms', RentChangeTerms) },
      },
    },
    async (request) => (await facilityTerms(readContext(request), await requireFacility(request.query.facilityId))).terms,
  );

  async function requireFacility(facilityId: string): Promise<string> {
    const { state } = await loadAggregate(deps.store, streams.facility(facilityId), facilityAggregate);
    if (state.status !== 'current') throw new DomainRuleError('facilityId: no such facility', 'facilityId');
    return facilityId;
  }

  /** The facility's terms, with the effective date checked against them (400 naming effectiveDate). */
  async function checkedTerms(ctx: CommandContext, body: z.output<typeof BulkRentChangeRequest>): Promise<RentChangeTerms> {
    const { terms, billedThrough } = await facilityTerms(ctx, await requireFacility(body.facilityId));
    if (body.effectiveDate < terms.earliestEffectiveDate) {
      const invoiced =
        terms.earliestEffectiveDate === earliestRentChangeDate(terms.today, terms.noticeDays) ? '' : `; rent here is invoiced through ${billedThrough}`;
      throw new DomainRuleError(
        `effectiveDate: must be on or after ${terms.earliestEffectiveDate} (${terms.noticeDays} days' notice from today, ${terms.today}${invoiced})`,
        'effectiveDate',
      );
    }
    return terms;
  }

  app.post(
    '/api/rent-changes/preview',
    {
      config: pricing,
      schema: {
        summary: 'Preview a bulk rent change',
        description:
          'Every active lease of the facility that has paid the same rate for at least minMonthsAtRate whole months (since it started or its last change took effect), with its new rate (by a percentage or an amount, half up to the cent), and the totals; leases with a change pending are listed as skipped. Records nothing: the bulk request with the same body schedules exactly these.',
        body: BulkRentChangeRequest,
        response: { 200: json('Who and how much', RentChangePlan) },
      },
    },
    async (request) => {
      const body = request.body;
      const terms = await checkedTerms(readContext(request), body);
      return planRentChanges(deps.pool, {
        facilityId: body.facilityId,
        minMonthsAtRate: body.minMonthsAtRate,
        adjustment: { kind: body.kind, value: body.value },
        effectiveDate: body.effectiveDate,
        today: terms.today,
      });
    },
  );

  app.post(
    '/api/rent-changes/bulk',
    {
      config: pricing,
      schema: {
        summary: 'Schedule a bulk rent change',
        description:
          "Schedules the preview's changes (the same body), each noticed today. Needs an Idempotency-Key: each change's id derives from it and the lease, so a retry (even after a crash half-way) schedules no lease twice. Leases with a change pending, or refused on their own, are skipped and listed.",
        body: BulkRentChangeRequest,
        response: { 201: json('What was scheduled, and what was skipped', RentChangePlan) },
      },
    },
    async (request, reply) => {
      const claim = request.idempotency;
      if (!claim) throw new ValidationError('Idempotency-Key: is required for a bulk rent change', 'Idempotency-Key');
      const body = request.body;
      const ctx = commandContext(deps, request);
      const terms = await checkedTerms(ctx, body);
      const requestKey = `${claim.scope}\u0000${claim.key}`;
      const plan = await planRentChanges(deps.pool, {
        facilityId: body.facilityId,
        minMonthsAtRate: body.minMonthsAtRate,
        adjustment: { kind: body.kind, value: body.value },
        effectiveDate: body.effectiveDate,
        today: terms.today,
        ownChangeId: (leaseId) => bulkRentChangeId(requestKey, leaseId),
      });
      const { outcomes, position } = await scheduleBulkRentChanges(ctx, requestKey, plan.leases, body.effectiveDate, body.reason);
      if (position) await deps.afterAppend(position);
      const refused = new Map(outcomes.flatMap((o) => (o.skipped === null ? [] : [[o.leaseId, o.skipped] as const])));
      const changeIds = new Map(outcomes.map((o) => [o.leaseId, o.changeId]));
      const leases = plan.leases.filter((l) => !refused.has(l.leaseId)).map((l) => ({ ...l, changeId: changeIds.get(l.leaseId) ?? null }));
      const skipped = [
        ...plan.skipped,
        ...plan.leases
          .filter((l) => refused.has(l.leaseId))
          .map(({ customer, unit, leaseId, currentRate }) => ({ customer, unit, leaseId, currentRate, reason: refused.get(leaseId)! })),
      ];
      return reply.status(201).send({ ...plan, leases, skipped, totals: totalsOf(leases) });
    },
  );
}
