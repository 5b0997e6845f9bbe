import type { CommandContext } from '@storage/domain/commands/handle';
import type { Actor } from '@storage/eventstore/port';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.ts';

/** The context a command runs in for this request: who, which correlation, and "now" on the business clock. */
export function commandContext(deps: AppDeps, request: FastifyRequest): CommandContext {
  const actor: Actor = request.staff ? { type: 'staff', id: request.staff.id } : { type: 'system' };
  return { store: deps.store, actor, correlationId: request.id, now: deps.clock.now() };
}
