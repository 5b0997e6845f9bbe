import rateLimit from '@fastify/rate-limit';
import { ChangePasswordRequest } from '@storage/contracts/settings';
import { changePassword } from '@storage/domain/auth/change-password';
import { requireAcceptablePassword } from '@storage/domain/auth/password-rule';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../deps.ts';
import { OWN_ACCOUNT } from '../http/access.ts';
import { sessionTokens } from '../http/caller.ts';
import { commandContext } from '../http/command-context.ts';
import { empty } from '../http/responses.ts';
import { revokeStaffSessions } from './sessions.ts';

const PASSWORD_CHANGES_PER_WINDOW = 10;
const PASSWORD_CHANGE_WINDOW = '15 minutes';

/** Registered inside a plugin that already requires a signed-in staff member. */
export async function passwordRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
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
      schema: {
        tags: ['Staff sign-in'],
        summary: 'Change my password',
        description:
          "Changes the signed-in staff member's own password (any role, auditors too); the new one must be long and hard to guess (see the field). Their other sessions end; this one stays.",
        body: ChangePasswordRequest,
        response: { 204: empty('Changed') },
      },
    },
    async (request, reply) => {
      const { currentPassword, newPassword } = request.body;
      const staff = request.staff!;
      // Before the current password is checked and anything is written.
      await requireAcceptablePassword('newPassword', newPassword, { email: staff.email, firstName: staff.first_name, lastName: staff.last_name });
      const result = await changePassword({ ...commandContext(deps, request), pool: deps.pool }, request.staff!.id, { currentPassword, newPassword });
      // Whoever else holds a session of this account (a copied cookie, another device) is signed out; this one stays.
      await revokeStaffSessions(deps.pool, request.staff!.id, { except: sessionTokens(request).staff });
      if (result.position) await deps.afterAppend(result.position);
      return reply.status(204).send();
    },
  );
}
