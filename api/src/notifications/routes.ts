import { NotificationType } from '@storage/contracts/enums';
import { streams } from '@storage/contracts/events';
import {
  ListNotificationsQuery,
  MarkAllNotificationsReadRequest,
  NOTIFICATION_LIST_LIMIT,
  Notification,
  UNREAD_COUNT_HEADER,
} from '@storage/contracts/notifications';
import { NotFoundError } from '@storage/domain/commands/errors';
import { handleCommand } from '@storage/domain/commands/handle';
import type { FastifyInstance } from 'fastify';
import { sql } from 'slonik';
import { z } from 'zod';
import { inFacility } from '../dashboard/queries.ts';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { IdParams } from '../http/params.ts';
import { countHeader, empty, errorAnswer, json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';

const NotificationRow = z.object({
  id: z.string(),
  // A type this version does not know shows as 'other' (the bell's 📄) rather than failing the list.
  type: NotificationType.catch('other'),
  title: z.string(),
  message: z.string(),
  read: z.boolean(),
  created_at: z.string(),
});
const CountRow = z.object({ n: z.number() });

type ReadState = { read: boolean };
const notificationAggregate = {
  initial: { read: false } as ReadState,
  evolve: (state: ReadState, event: { type: string }): ReadState => (event.type === 'notification_read' ? { read: true } : state),
};

// A notification is read when it was marked read on its own, or raised before a "Mark all as
// read" of its facility or of all facilities (notification_read_marks: one row per scope).
const withMarks = sql.fragment`notifications n
  LEFT JOIN notification_read_marks every ON every.scope = 'all'
  LEFT JOIN notification_read_marks own ON own.scope = n.facility_id::text`;
const isRead = sql.fragment`(n.read OR n.created_at <= every.read_before OR n.created_at <= own.read_before) IS TRUE`;

const markAggregate = { initial: null, evolve: () => null };

export async function notificationRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Notifications', access: 'staff' });

  /** The newest notifications of the scope; the header counts all its unread ones, listed or not. */
  app.get(
    '/api/notifications',
    {
      schema: {
        summary: 'List notifications',
        description: `The newest ${NOTIFICATION_LIST_LIMIT}, newest first.`,
        querystring: ListNotificationsQuery,
        response: {
          200: {
            ...json('The notifications', z.array(Notification)),
            headers: { [UNREAD_COUNT_HEADER]: countHeader('How many are unread, listed or not') },
          },
        },
      },
    },
    async (request, reply) => {
      const { facilityId } = request.query;
      const scope = inFacility(sql.fragment`n.facility_id`, facilityId);
      const [rows, unread] = await Promise.all([
        deps.pool.any(sql.type(NotificationRow)`
        SELECT n.id::text, n.type, n.title, n.message, ${isRead} AS read, n.created_at FROM ${withMarks}
        WHERE ${scope} ORDER BY n.created_at DESC, n.id LIMIT ${NOTIFICATION_LIST_LIMIT}`),
        deps.pool.oneFirst(sql.type(CountRow)`SELECT count(*)::int8 AS n FROM ${withMarks} WHERE ${scope} AND NOT ${isRead}`),
      ]);
      const notifications: Notification[] = rows.map((r) => ({
        id: r.id,
        type: r.type,
        title: r.title,
        message: r.message,
        read: r.read,
        createdAt: r.created_at,
      }));
      return reply.header(UNREAD_COUNT_HEADER, String(unread)).send(notifications);
    },
  );

  app.put(
    '/api/notifications/:id/read',
    { schema: { summary: 'Mark a notification read', params: IdParams, response: { 204: empty('Read') } } },
    async (request, reply) => {
      const { id } = request.params;
      const exists = await deps.pool.exists(sql.unsafe`SELECT 1 FROM notifications WHERE id = ${id}`);
      if (!exists) throw new NotFoundError('Notification not found');
      const result = await handleCommand(commandContext(deps, request), streams.notification(id), notificationAggregate, (state) =>
        state.read ? [] : [{ type: 'notification_read', data: { notificationId: id } }],
      );
      if (result.position) await deps.afterAppend(result.position);
      return reply.status(204).send();
    },
  );

  /** Marks every notification of the scope read with one event, so the badge goes to 0 however many there are. */
  app.post(
    '/api/notifications/read-all',
    {
      schema: {
        summary: 'Mark all notifications read',
        description: 'Every notification of the facility (of all facilities when none is given) raised until now. The body may be left out.',
        body: MarkAllNotificationsReadRequest.prefault({}),
        response: { 204: empty('Read'), 404: errorAnswer('No such facility') },
      },
    },
    async (request, reply) => {
      const { facilityId } = request.body;
      if (facilityId && !(await deps.pool.exists(sql.unsafe`SELECT 1 FROM facilities WHERE id = ${facilityId}`))) {
        throw new NotFoundError('Facility not found');
      }
      const result = await handleCommand(commandContext(deps, request), streams.notificationMarks(facilityId ?? null), markAggregate, () => [
        { type: 'notifications_marked_read', data: { facilityId: facilityId ?? null } },
      ]);
      if (result.position) await deps.afterAppend(result.position);
      return reply.status(204).send();
    },
  );
}
