import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';

// Stripe Elements loads its script and card frames from js.stripe.com and talks to api.stripe.com.
const stripeScripts = ['https://js.stripe.com'];
const stripeConnections = ['https://api.stripe.com'];

// Security headers for every answer. The apps load only their own scripts (and Stripe's, only
// when a Stripe key is configured); antd injects its styles at run time, hence 'unsafe-inline'
// for styles only.
export async function registerSecurityHeaders(app: FastifyInstance, deps: Pick<AppDeps, 'stripePublishableKey'>) {
  const stripe = deps.stripePublishableKey !== undefined;
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(stripe ? stripeScripts : [])],
        ...(stripe ? { frameSrc: ["'self'", ...stripeScripts] } : {}),
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...(stripe ? stripeConnections : [])],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // Served over plain HTTP on localhost by default; HSTS belongs to the TLS terminator.
    strictTransportSecurity: false,
  });
  // Answers carry personal data (renters, staff, bills, exports): no browser or proxy keeps them.
  // Only what says otherwise (the apps' fingerprinted assets, their index.html) is cached.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
