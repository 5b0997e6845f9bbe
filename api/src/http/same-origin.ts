import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CHANGING_METHODS } from './access.ts';

// Requests that change something must come from the product's own pages. A browser says where a
// request comes from (Sec-Fetch-Site; Origin on every cross-origin POST, and on older browsers
// without Sec-Fetch-Site), so another site's form, image or script cannot use a signed-in staff
// member's or renter's cookies to change anything, not even another origin of the same site (a
// subdomain), which SameSite cookies do not keep out. A request with neither header is not a
// browser's cross-site request (a gateway, Stripe's webhook, a script with a key): it passes and
// meets its route's own access check. Bodies are JSON only, so a cross-site form or `text/plain`
// beacon, which a browser sends without asking the server first, is never read as a command.

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers another site's request itself (the sign-out form asks to confirm instead
     * of signing out) and takes the empty urlencoded body of its own confirmation form.
     */
    answersCrossSite?: boolean;
  }
}

/** Whether `source` (an Origin or Referer) names this host: the request's own, or PUBLIC_URL's. */
function isOwnOrigin(source: string, request: FastifyRequest, publicUrl: string | undefined): boolean {
  let from: URL;
  try {
    from = new URL(source);
  } catch {
    return false;
  }
  const hosts = [request.headers.host, request.host, publicUrl && new URL(publicUrl).host].filter((h): h is string => typeof h === 'string' && h !== '');
  // Each host read as a URL of the source's scheme, so `host:80` and `HOST` compare alike.
  return hosts.some((host) => {
    try {
      return from.host === new URL(`${from.protocol}//${host}`).host;
    } catch {
      return false;
    }
  });
}

/**
 * Whether a GET comes from our own pages (or the address bar): the browser's Sec-Fetch-Site, else
 * Origin or Referer naming this host. Another site's link, image or form gets a "no".
 */
export function isSameOriginRequest(request: FastifyRequest, publicUrl?: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  const source = request.headers.origin ?? request.headers.referer;
  return typeof source === 'string' && isOwnOrigin(source, request, publicUrl);
}

/** Why a change cannot be taken from where the browser says it comes from; null when it can. */
export function crossSiteRefusal(request: FastifyRequest, publicUrl?: string): string | null {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' ? null : 'This change must be made from the product’s own pages';
  const { origin } = request.headers;
  if (origin === undefined) return null;
  return isOwnOrigin(origin, request, publicUrl) ? null : 'This change must be made from the product’s own pages';
}

const JSON_TYPE = /^application\/json\s*(;|$)/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/** Refuses, before a body is read, a change from another site (403) or with a body that is not JSON (415). */
export function registerSameOriginChanges(app: FastifyInstance, publicUrl: string | undefined): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!CHANGING_METHODS.has(request.method)) return;
    const config = request.routeOptions.config;
    const answersItself = config?.answersCrossSite === true;
    if (!answersItself) {
      const refusal = crossSiteRefusal(request, publicUrl);
      if (refusal) return reply.status(403).send({ message: refusal });
    }
    const type = request.headers['content-type'];
    if (type === undefined || JSON_TYPE.test(type) || (answersItself && FORM_TYPE.test(type))) return;
    return reply.status(415).send({ message: 'The request body must be JSON (Content-Type: application/json)' });
  });
}
