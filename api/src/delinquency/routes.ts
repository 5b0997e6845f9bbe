import { DelinquencyTimeline, PauseDelinquencyRequest, ResumeDelinquencyRequest } from '@storage/contracts/delinquency';
import { NotFoundError } from '@storage/domain/commands/errors';
import type { CommandResult } from '@storage/domain/commands/handle';
import { pauseDelinquency, resumeDelinquency } from '@storage/domain/delinquency/commands';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { IdParams } from '../http/params.ts';
import { json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { getDelinquencyTimeline } from './queries.ts';

export async function delinquencyRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Delinquency', access: 'staff' });

  const timeline = async (customerId: string) => {
    const answer = await getDelinquencyTimeline(deps.pool, deps.store, customerId, deps.clock.now());
    if (!answer) throw new NotFoundError('Customer not found');
    return answer;
  };
  const answer = async (customerId: string, result: CommandResult<unknown>) => {
    if (result.position) await deps.afterAppend(result.position);
    return timeline(customerId);
  };

  app.get(
    '/api/customers/:id/delinquency',
    {
      schema: {
        summary: "A renter's delinquency timeline",
        description:
          'Where the renter is in the delinquency schedule: status (current, delinquent, paused), the past-due balance, the steps taken (each naming the rule, the invoice and the day), every delinquency event, the next step and its date, the amount to pay to stop it, and the pause.',
        params: IdParams,
        response: { 200: json('The timeline', DelinquencyTimeline) },
      },
    },
    async (request) => timeline(request.params.id),
  );

  app.post(
    '/api/customers/:id/delinquency/pause',
    {
      config: { roles: ['owner', 'manager'] },
      schema: {
        summary: "Pause a renter's delinquency schedule",
        description:
          "No step fires on the renter until the date has passed (a promise to pay): until is after today in the facility's time zone and at most 90 days ahead; a reason is required. A pause replaces the one before it.",
        params: IdParams,
        body: PauseDelinquencyRequest,
        response: { 200: json('The timeline', DelinquencyTimeline) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return answer(id, await pauseDelinquency(commandContext(deps, request), id, request.body.until, request.body.reason));
    },
  );

  app.post(
    '/api/customers/:id/delinquency/resume',
    {
      config: { roles: ['owner', 'manager'] },
      schema: {
        summary: "Resume a renter's paused delinquency schedule",
        description: 'Ends the pause today: the next billing day takes the steps it held back. 409 when the schedule is not paused.',
        params: IdParams,
        body: ResumeDelinquencyRequest,
        response: { 200: json('The timeline', DelinquencyTimeline) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return answer(id, await resumeDelinquency(commandContext(deps, request), id, request.body.reason));
    },
  );
}
