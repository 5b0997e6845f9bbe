import { AddStaffRequest, ChangeStaffRoleRequest, type StaffMember, StaffParams } from '@storage/contracts/staff';
import { registerStaff } from '@storage/domain/auth/staff';
import type { CommandResult } from '@storage/domain/commands/handle';
import { changeStaffRole, deactivateStaff, reactivateStaff, type StaffManagementContext } from '@storage/domain/staff/commands';
import type { StaffState } from '@storage/domain/staff/staff';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { revokeStaffSessions } from '../auth/sessions.ts';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { requireRole } from '../http/roles.ts';
import { parseInput } from '../http/validate.ts';
import { getStaffMember, listStaff } from './queries.ts';

/** Staff management: owners only (managers, clerks and auditors get 403). */
export async function staffRoutes(app: FastifyInstance, deps: AppDeps) {
  app.addHook('preHandler', app.requireStaff);
  app.addHook('preHandler', requireRole('owner'));

  const context = (request: FastifyRequest): StaffManagementContext => ({
    ...commandContext(deps, request),
    pool: deps.pool,
    afterAppend: deps.afterAppend,
  });

  /** The member as just written (the read model may still be behind: its other fields fill in). */
  const answer = async (result: CommandResult<StaffState>): Promise<StaffMember> => {
    const state = result.state;
    if (state.status === 'none') throw new Error('A changed staff account has no state');
    const read = await getStaffMember(deps.pool, state.staffId);
    return {
      id: state.staffId,
      email: state.email,
      firstName: state.firstName,
      lastName: state.lastName,
      role: state.role,
      status: state.status,
      createdAt: read?.createdAt ?? new Date().toISOString(),
    };
  };

  app.get('/api/staff', async () => listStaff(deps.pool));

  app.post('/api/staff', async (request, reply) => {
    const { password, ...member } = parseInput(AddStaffRequest, request.body);
    const { staffId, position } = await registerStaff({ ...commandContext(deps, request), pool: deps.pool }, { ...member, password });
    if (position) await deps.afterAppend(position);
    const read = await getStaffMember(deps.pool, staffId);
    return reply.status(201).send(read ?? { id: staffId, ...member, status: 'active', createdAt: new Date().toISOString() });
  });

  app.put('/api/staff/:id/role', async (request) => {
    const { id } = parseInput(StaffParams, request.params, 'params');
    const { role } = parseInput(ChangeStaffRoleRequest, request.body);
    return answer(await changeStaffRole(context(request), id, role));
  });

  app.post('/api/staff/:id/deactivate', async (request) => {
    const { id } = parseInput(StaffParams, request.params, 'params');
    const result = await deactivateStaff(context(request), id);
    // Their sessions end for good (requireStaff already refuses a deactivated member's session;
    // reactivating them must not bring an old session back).
    await revokeStaffSessions(deps.pool, id);
    return answer(result);
  });

  app.post('/api/staff/:id/reactivate', async (request) => {
    const { id } = parseInput(StaffParams, request.params, 'params');
    return answer(await reactivateStaff(context(request), id));
  });
}
