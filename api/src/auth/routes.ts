import rateLimit from '@fastify/rate-limit';
import { LoginRequest } from '@storage/contracts/auth';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { parseInput } from '../http/validate.ts';
import { toAuthUser } from '../plugins/session.ts';
import { verifyPassword, UNKNOWN_USER_HASH } from './passwords.ts';
import { findStaffByEmail } from './staff.ts';

const LOGIN_ATTEMPTS_PER_WINDOW = 10;
const LOGIN_WINDOW = '15 minutes';

export async function authRoutes(app: FastifyInstance, deps: AppDeps) {
  await app.register(rateLimit, {
    global: false,
    ...(deps.redis ? { redis: deps.redis, nameSpace: 'storage-rate-limit-' } : {}),
  });

  app.post(
    '/api/auth/login',
    {
      config: {
        rateLimit: {
          max: LOGIN_ATTEMPTS_PER_WINDOW,
          timeWindow: LOGIN_WINDOW,
          hook: 'preHandler',
          // Per address and account: one attacker cannot lock out everyone else.
          keyGenerator: (request) => `${request.ip}|${String((request.body as { email?: unknown } | null)?.email ?? '').toLowerCase()}`,
          errorResponseBuilder: (_request, context) => ({
            statusCode: 429,
            message: `Too many sign-in attempts. Try again in ${Math.ceil(context.ttl / 60000)} minutes.`,
          }),
        },
      },
    },
    async (request, reply) => {
      const { email, password } = parseInput(LoginRequest, request.body);
      const staff = await findStaffByEmail(deps.pool, email);
      const matches = await verifyPassword(password, staff?.password_hash ?? UNKNOWN_USER_HASH);
      if (!staff || !matches) return reply.status(401).send({ message: 'Invalid email or password' });
      request.session.regenerate();
      request.session.set('staffId', staff.id);
      return toAuthUser(staff);
    },
  );

  app.get('/api/auth/user', { preHandler: app.requireStaff }, async (request) => toAuthUser(request.staff!));

  app.get('/api/login', async (_request, reply) => reply.redirect('/login'));

  app.get('/api/logout', async (request, reply) => {
    request.session.delete();
    return reply.redirect('/');
  });
}
