import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { TrustProxy } from '@storage/platform/config';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What a proxy may hand us as a request id: a short token (a UUID, a trace id), nothing a log line could be forged with. */
const FORWARDED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function bare(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** Whether the peer that sent this request is a proxy TRUST_PROXY trusts (the first hop Fastify's trustProxy would believe). */
export function trustsPeer(trustProxy: TrustProxy | undefined): (address: string | undefined) => boolean {
  if (trustProxy === undefined || trustProxy === false) return () => false;
  if (trustProxy === true) return () => true;
  if (typeof trustProxy === 'number') return () => trustProxy > 0;
  const list = new BlockList();
  for (const entry of trustProxy) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return (address) => {
    if (!address) return false;
    const peer = bare(address);
    return list.check(peer, isIP(peer) === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * Fastify's genReqId: a fresh UUID per request (Fastify's own ids restart at req-1 on every start,
 * and they become the correlation id of the events a request appends), or the X-Request-Id a
 * trusted proxy sent, so one id follows the request through the proxy's logs and ours.
 */
export function requestIdGenerator(trustProxy: TrustProxy | undefined): (request: IncomingMessage) => string {
  const trusted = trustsPeer(trustProxy);
  return (request) => {
    const forwarded = request.headers[REQUEST_ID_HEADER];
    if (typeof forwarded === 'string' && FORWARDED_ID.test(forwarded) && trusted(request.socket?.remoteAddress)) return forwarded;
    return randomUUID();
  };
}

/** Every answer names its request id, so a client's report can be found in the log and on the events. */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
