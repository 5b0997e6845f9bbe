import rateLimit from '@fastify/rate-limit';
import { ChangePasswordRequest } from '@storage/contracts/settings';
import { changePassword } from '@storage/domain/auth/change-password';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { sessionTokens } from '../http/caller.ts';
import { commandContext } from '../http/command-context.ts';
import { OWN_ACCOUNT } from '../http/read-only-roles.ts';
import { parseInput } from '../http/validate.ts';
import { revokeStaffSessions } from './sessions.ts';

const PASSWORD_CHANGES_PER_WINDOW = 10;
const PASSWORD_CHANGE_WINDOW = '15 minutes';

/** Registered inside a plugin that already requires a signed-in staff member. */
export async function passwordRoutes(app: FastifyInstance, deps: AppDeps) {
  await app.register(rateLimit, {
    global: false,
    ...(deps.redis ? { redis: deps.redis, nameSpace: 'storage-rate-limit-' } : {}),
  });

  app.put(
    '/api/auth/password',
    {
      config: {
        ...OWN_ACCOUNT,
        rateLimit: {
          max: PASSWORD_CHANGES_PER_WINDOW,
          timeWindow: PASSWORD_CHANGE_WINDOW,
          hook: 'preHandler',
          // A stolen session must not become a way to guess the current password.
          keyGenerator: (request) => `password-change|${request.staff?.id ?? request.ip}`,
          errorResponseBuilder: (_request, context) => ({
            statusCode: 429,
            message: `Too many password changes. Try again in ${Math.ceil(context.ttl / 60000)} minutes.`,
          }),
        },
      },
    },
    async (request, reply) => {
      const { currentPassword, newPassword } = parseInput(ChangePasswordRequest, request.body);
      const result = await changePassword({ ...commandContext(deps, request), pool: deps.pool }, request.staff!.id, { currentPassword, newPassword });
      // Whoever else holds a session of this account (a copied cookie, another device) is signed out; this one stays.
      await revokeStaffSessions(deps.pool, request.staff!.id, { except: sessionTokens(request).staff });
      if (result.position) await deps.afterAppend(result.position);
      return reply.status(204).send();
    },
  );
}
