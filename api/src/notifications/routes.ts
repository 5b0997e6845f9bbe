import { Id } from '@storage/contracts/fields';
import { streams } from '@storage/contracts/events';
import type { FastifyInstance } from 'fastify';
import { sql } from 'slonik';
import { z } from 'zod';
import { NotFoundError } from '../commands/errors.ts';
import { handleCommand } from '../commands/handle.ts';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { parseInput } from '../http/validate.ts';

const NotificationRow = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  message: z.string(),
  read: z.boolean(),
  created_at: z.string(),
});
const NOTIFICATION_LIST_LIMIT = 50;

type ReadState = { read: boolean };
const notificationAggregate = {
  initial: { read: false } as ReadState,
  evolve: (state: ReadState, event: { type: string }): ReadState => (event.type === 'notification_read' ? { read: true } : state),
};

export async function notificationRoutes(app: FastifyInstance, deps: AppDeps) {
  app.addHook('preHandler', app.requireStaff);

  app.get('/api/notifications', async () => {
    const rows = await deps.pool.any(sql.type(NotificationRow)`
      SELECT id::text, type, title, message, read, created_at FROM notifications
      ORDER BY created_at DESC LIMIT ${NOTIFICATION_LIST_LIMIT}`);
    return rows.map((r) => ({ id: r.id, type: r.type, title: r.title, message: r.message, read: r.read, createdAt: r.created_at }));
  });

  app.put('/api/notifications/:id/read', async (request, reply) => {
    const { id } = parseInput(z.strictObject({ id: Id }), request.params, 'params');
    const exists = await deps.pool.exists(sql.unsafe`SELECT 1 FROM notifications WHERE id = ${id}`);
    if (!exists) throw new NotFoundError('Notification not found');
    const result = await handleCommand(commandContext(deps, request), streams.notification(id), notificationAggregate, (state) =>
      state.read ? [] : [{ type: 'notification_read', data: { notificationId: id } }],
    );
    if (result.position) await deps.afterAppend(result.position);
    return reply.status(204).send();
  });
}
