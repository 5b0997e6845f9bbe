import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

// Security headers for every answer. The apps load only their own scripts; antd injects its
// styles at run time, hence 'unsafe-inline' for styles only.
export async function registerSecurityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // Served over plain HTTP on localhost by default; HSTS belongs to the TLS terminator.
    strictTransportSecurity: false,
  });
}
