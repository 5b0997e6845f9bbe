import { ChangeLeaseProtectionRequest, ChooseProtectionRequest, LeaseProtectionView, RecordInsuranceProofRequest } from '@storage/contracts/protection';
import { NotFoundError } from '@storage/domain/commands/errors';
import { changeLeaseProtection, leaseProtectionView, recordInsuranceProof } from '@storage/domain/leases/protection';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { IdParams } from '../http/params.ts';
import { errorAnswer, json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { getLease } from './queries.ts';

// A lease's protection plan after the move-in, and proof of the renter's own insurance. Read from
// the lease's stream: the dialog that changes it offers exactly what the command will accept.

export async function leaseProtectionRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Leases', access: 'staff' });
  const leasing = { roles: ['owner', 'manager', 'clerk'] } as const;
  const view = { 200: json("The lease's protection", LeaseProtectionView), 404: errorAnswer('No such lease') };

  app.get(
    '/api/leases/:id/protection',
    {
      schema: {
        summary: "A lease's protection plan",
        description:
          'The plan from now on, each change (effective from the first period not yet invoiced), the proof of insurance on file, and the plans its facility offers.',
        params: IdParams,
        response: view,
      },
    },
    async (request) => leaseProtectionView(deps.store, request.params.id),
  );

  app.post(
    '/api/leases/:id/protection',
    {
      config: leasing,
      schema: {
        summary: "Choose, change or cancel a lease's protection plan",
        description:
          "planId: a plan of the lease's facility; null cancels the plan. It is billed (or stops) from the first period not yet invoiced; the periods already invoiced keep theirs. The same plan again records nothing. 409 for a lease that ended or whose move-out is invoiced.",
        params: IdParams,
        body: ChangeLeaseProtectionRequest,
        response: { ...view, 409: errorAnswer('The lease ended') },
      },
    },
    async (request) => {
      const result = await changeLeaseProtection(commandContext(deps, request), request.params.id, request.body.planId);
      if (result.position) await deps.afterAppend(result.position);
      return leaseProtectionView(deps.store, request.params.id);
    },
  );

  app.post(
    '/api/leases/:id/insurance-proof',
    {
      config: leasing,
      schema: {
        summary: "Record the renter's own insurance",
        description:
          "The carrier, the policy number and when it expires (after the facility's today). While it is in force the renter is not enrolled in the default plan.",
        params: IdParams,
        body: RecordInsuranceProofRequest,
        response: { ...view, 409: errorAnswer('The lease ended') },
      },
    },
    async (request) => {
      const result = await recordInsuranceProof(commandContext(deps, request), request.params.id, request.body);
      if (result.position) await deps.afterAppend(result.position);
      return leaseProtectionView(deps.store, request.params.id);
    },
  );

  /** The renter's own lease, or 404: another renter's lease is not theirs to know of. */
  async function ownLease(request: FastifyRequest, leaseId: string) {
    const lease = await getLease(deps.pool, leaseId);
    if (!lease || lease.customer.id !== request.customerId) throw new NotFoundError('Lease not found');
  }
  const PORTAL = { tags: ['Customer portal'] };

  app.get(
    '/api/customer/leases/:id/protection',
    {
      config: { access: 'portal' },
      schema: {
        ...PORTAL,
        summary: 'My protection plan',
        params: IdParams,
        response: { 200: json("The lease's protection", LeaseProtectionView), 404: errorAnswer('No such lease of mine') },
      },
    },
    async (request) => {
      await ownLease(request, request.params.id);
      return leaseProtectionView(deps.store, request.params.id);
    },
  );

  app.post(
    '/api/customer/leases/:id/protection',
    {
      config: { access: 'portal' },
      schema: {
        ...PORTAL,
        summary: 'Choose or change my protection plan',
        description: 'A plan of the facility, billed from the first period not yet invoiced. Cancelling a plan is done with the office.',
        params: IdParams,
        body: ChooseProtectionRequest,
        response: { 200: json("The lease's protection", LeaseProtectionView), 404: errorAnswer('No such lease of mine'), 409: errorAnswer('The lease ended') },
      },
    },
    async (request) => {
      await ownLease(request, request.params.id);
      const ctx = { ...commandContext(deps, request), actor: { type: 'customer' as const, id: request.customerId! } };
      const result = await changeLeaseProtection(ctx, request.params.id, request.body.planId, 'renter');
      if (result.position) await deps.afterAppend(result.position);
      return leaseProtectionView(deps.store, request.params.id);
    },
  );
}
