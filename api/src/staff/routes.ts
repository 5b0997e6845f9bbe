import { pageHeaders } from '@storage/contracts/paging';
import { AddStaffRequest, ChangeStaffRoleRequest, ListStaffQuery, StaffMember, StaffParams } from '@storage/contracts/staff';
import { requireAcceptablePassword } from '@storage/domain/auth/password-rule';
import { registerStaff } from '@storage/domain/auth/staff';
import type { CommandResult } from '@storage/domain/commands/handle';
import { changeStaffRole, deactivateStaff, reactivateStaff, type StaffManagementContext } from '@storage/domain/staff/commands';
import type { StaffState } from '@storage/domain/staff/staff';
import { resetTwoFactor } from '@storage/domain/staff/two-factor-commands';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { revokeStaffSessions } from '../auth/sessions.ts';
import { forgetFactors } from '../auth/two-factor.ts';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { json, page } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { getStaffMember, listStaff } from './queries.ts';

/** Staff management: owners only (managers, clerks and auditors get 403). */
export async function staffRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Staff', access: 'staff', roles: ['owner'] });

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
      twoFactorEnabled: state.twoFactorId !== null,
      createdAt: read?.createdAt ?? new Date().toISOString(),
    };
  };

  app.get(
    '/api/staff',
    { schema: { summary: 'List staff', querystring: ListStaffQuery, response: { 200: page('A page of staff accounts', StaffMember) } } },
    async (request, reply) => {
      const { members, paging } = await listStaff(deps.pool, request.query);
      return reply.headers(pageHeaders(paging)).send(members);
    },
  );

  app.post(
    '/api/staff',
    {
      schema: {
        summary: 'Add a staff member',
        description: 'Creates an account with its first password, which must be long and hard to guess (see the field).',
        body: AddStaffRequest,
        response: { 201: json('The new account', StaffMember) },
      },
    },
    async (request, reply) => {
      const { password, ...member } = request.body;
      // Before anything is written; registerStaff itself takes any password (the seeds' and the demo's).
      await requireAcceptablePassword('password', password, member);
      const { staffId, position } = await registerStaff({ ...commandContext(deps, request), pool: deps.pool }, { ...member, password });
      if (position) await deps.afterAppend(position);
      const read = await getStaffMember(deps.pool, staffId);
      return reply.status(201).send(read ?? { id: staffId, ...member, status: 'active', twoFactorEnabled: false, createdAt: new Date().toISOString() });
    },
  );

  app.put(
    '/api/staff/:id/role',
    {
      schema: {
        summary: "Change a staff member's role",
        params: StaffParams,
        body: ChangeStaffRoleRequest,
        response: { 200: json('The account as changed', StaffMember) },
      },
    },
    async (request) => answer(await changeStaffRole(context(request), request.params.id, request.body.role)),
  );

  app.post(
    '/api/staff/:id/deactivate',
    {
      schema: {
        summary: 'Deactivate a staff member',
        description: 'They can no longer sign in, and their sessions end.',
        params: StaffParams,
        response: { 200: json('The account as changed', StaffMember) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const result = await deactivateStaff(context(request), id);
      // Their sessions end for good (requireStaff already refuses a deactivated member's session;
      // reactivating them must not bring an old session back).
      await revokeStaffSessions(deps.pool, id);
      return answer(result);
    },
  );

  app.post(
    '/api/staff/:id/two-factor/reset',
    {
      schema: {
        summary: "Reset a staff member's two-factor sign-in",
        description:
          'Turns it off for them (a lost phone): their secret and recovery codes are deleted, they sign in with their password and can set it up again (at once, when the business requires it). Recorded on their history.',
        params: StaffParams,
        response: { 200: json('The account as changed', StaffMember) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const result = await resetTwoFactor(commandContext(deps, request), id);
      if (result.position) await deps.afterAppend(result.position);
      await forgetFactors(deps.pool, id);
      return answer(result);
    },
  );

  app.post(
    '/api/staff/:id/reactivate',
    { schema: { summary: 'Reactivate a staff member', params: StaffParams, response: { 200: json('The account as changed', StaffMember) } } },
    async (request) => answer(await reactivateStaff(context(request), request.params.id)),
  );
}
