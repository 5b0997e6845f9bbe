import { LEASE_CHANGED_SINCE_OPENED, LeaseSignature, LeaseToSign, SIGNATURE_MARK_MAX, SignLeaseRequest } from '@storage/contracts/lease-signatures';
import { NotFoundError } from '@storage/domain/commands/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { IdParams } from '../http/params.ts';
import { errorAnswer, file, json } from '../http/responses.ts';
import { getLease } from './queries.ts';
import { leaseToSign, sendSignedPdf, signLeaseFor } from './signatures.ts';

// The lease agreement's signature: staff have the renter sign at the desk (on a tablet), a renter
// signs their own lease in the portal; both download the signed PDF. Registered inside the lease
// routes, so each route says who may call it (the renter's routes name the portal's access).

const PORTAL = { tags: ['Customer portal'] };
/** Room for the largest mark the contract takes and the rest of the body, so an oversize mark is a 400 naming it, not a 413. */
const SIGN_BODY_LIMIT = 2 * SIGNATURE_MARK_MAX + 4096;

export async function leaseSignatureRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  // Auditors read; the desk has the renter sign.
  const signing = { roles: ['owner', 'manager', 'clerk'] } as const;

  /** The renter's own lease, or 404: another renter's lease is not theirs to know of. */
  async function ownLease(request: FastifyRequest, leaseId: string) {
    const lease = await getLease(deps.pool, leaseId);
    if (!lease || lease.customer.id !== request.customerId) throw new NotFoundError('Lease not found');
    return lease;
  }

  const signAnswers = {
    200: json('Signed already: the signature recorded for this same document', LeaseSignature),
    201: json('Signed: the signature recorded', LeaseSignature),
    400: errorAnswer('A field is missing or not valid (the mark: an SVG path or PNG data URL up to 64 KB)'),
    404: errorAnswer('No such lease'),
    409: errorAnswer(`${LEASE_CHANGED_SINCE_OPENED} Or: the lease has ended`),
  };
  const signDescription =
    'Records the renter’s signature of the agreement as the server renders it now (its SHA-256 over the canonical text), with the typed name, the drawn mark, and the request’s IP address and user agent. `documentSha256`, when sent, must be the hash of the document the signer was shown (GET …/signature): otherwise 409. Signing the same document again answers the first signature (200); a changed document may be signed again.';

  app.get(
    '/api/leases/:id/signature',
    {
      schema: {
        summary: 'The agreement to sign',
        description: 'The agreement’s text as it would be signed now, its SHA-256, and the newest signature.',
        params: IdParams,
        response: { 200: json('The agreement and its signature state', LeaseToSign), 404: errorAnswer('No such lease') },
      },
    },
    async (request) => leaseToSign(deps, request.params.id),
  );

  app.post(
    '/api/leases/:id/signature',
    {
      config: signing,
      bodyLimit: SIGN_BODY_LIMIT,
      schema: { summary: 'Sign the lease at the desk', description: signDescription, params: IdParams, body: SignLeaseRequest, response: signAnswers },
    },
    async (request, reply) => {
      const { recorded, signature } = await signLeaseFor(deps, commandContext(deps, request), request, request.params.id, request.body, 'desk');
      return reply.status(recorded ? 201 : 200).send(signature);
    },
  );

  app.get(
    '/api/leases/:id/signed.pdf',
    {
      schema: {
        summary: 'The signed agreement as PDF',
        description:
          'The agreement as signed, then a certificate page: signer, time (facility zone), IP address, user agent, channel, SHA-256, the mark, the event id.',
        params: IdParams,
        response: { 200: file('The signed agreement', 'application/pdf'), 404: errorAnswer('No such lease, or not signed yet') },
      },
    },
    async (request, reply) => sendSignedPdf(deps, reply, request.params.id),
  );

  app.get(
    '/api/customer/leases/:id/signature',
    {
      config: { access: 'portal' },
      schema: {
        ...PORTAL,
        summary: 'My lease agreement to sign',
        params: IdParams,
        response: { 200: json('The agreement and its signature state', LeaseToSign), 404: errorAnswer('No such lease of mine') },
      },
    },
    async (request) => {
      await ownLease(request, request.params.id);
      return leaseToSign(deps, request.params.id);
    },
  );

  app.post(
    '/api/customer/leases/:id/signature',
    {
      config: { access: 'portal' },
      bodyLimit: SIGN_BODY_LIMIT,
      schema: { ...PORTAL, summary: 'Sign my lease', description: signDescription, params: IdParams, body: SignLeaseRequest, response: signAnswers },
    },
    async (request, reply) => {
      await ownLease(request, request.params.id);
      const ctx = { ...commandContext(deps, request), actor: { type: 'customer' as const, id: request.customerId! } };
      const { recorded, signature } = await signLeaseFor(deps, ctx, request, request.params.id, request.body, 'online');
      return reply.status(recorded ? 201 : 200).send(signature);
    },
  );

  app.get(
    '/api/customer/leases/:id/signed.pdf',
    {
      config: { access: 'portal' },
      schema: {
        ...PORTAL,
        summary: 'My signed lease as PDF',
        params: IdParams,
        response: { 200: file('The signed agreement', 'application/pdf'), 404: errorAnswer('No such lease of mine, or not signed yet') },
      },
    },
    async (request, reply) => {
      await ownLease(request, request.params.id);
      return sendSignedPdf(deps, reply, request.params.id);
    },
  );
}
