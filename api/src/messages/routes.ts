import { MessageTemplateKey } from '@storage/contracts/enums';
import {
  ListMessagesQuery,
  MessagePreferences,
  MessagePreferencesRequest,
  MessagePreview,
  MessagePreviewRequest,
  MessageTemplate,
  MessageTemplateKeyParams,
  MessageTemplateRequest,
  OutboxMessage,
  OutboxMessageDetail,
  optionalMessageKeys,
} from '@storage/contracts/messages';
import { pageHeaders } from '@storage/contracts/paging';
import { ConflictError, NotFoundError } from '@storage/domain/commands/errors';
import type { CommandContext } from '@storage/domain/commands/handle';
import {
  checkPlaceholders,
  loadMessagePreferences,
  loadTemplate,
  loadTemplates,
  updateMessagePreferences,
  updateMessageTemplate,
} from '@storage/domain/messages/commands';
import { composeForCustomer } from '@storage/domain/messages/compose';
import { renderTemplate } from '@storage/domain/messages/templates';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { getCustomer } from '../customers/queries.ts';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { attachment } from '../http/csv.ts';
import { IdParams } from '../http/params.ts';
import { errorAnswer, file, json, page } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { preLienLetterPdf } from './letter.ts';
import { getMessage, listMessages, retryFailedMessage } from './queries.ts';

const alwaysSent = MessageTemplateKey.options.filter((key) => !(optionalMessageKeys as readonly string[]).includes(key));

async function preferencesOf(deps: AppDeps, customerId: string): Promise<MessagePreferences> {
  const { optOuts } = await loadMessagePreferences(deps.store, customerId);
  return { optOuts, optional: [...optionalMessageKeys], alwaysSent };
}

const publicUrlOf = (deps: AppDeps) => deps.publicUrl ?? 'http://127.0.0.1:3000';

/** Message templates, Sent messages, a renter's opt-outs (staff). */
export async function messageRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Messages', access: 'staff' });
  const owner = { roles: ['owner'] } as const;
  const notFound = errorAnswer('Not found');

  app.get(
    '/api/message-templates',
    {
      schema: {
        summary: 'The message templates',
        description: 'Each message to renters as it is worded now, and the product’s own wording.',
        response: { 200: json('The templates', z.array(MessageTemplate)) },
      },
    },
    async () => loadTemplates(deps.store),
  );

  app.put(
    '/api/message-templates/:key',
    {
      config: owner,
      schema: {
        summary: 'Word a message template',
        description: 'Saves the owner’s subject and body; a placeholder the product does not know is refused (400, naming it).',
        params: MessageTemplateKeyParams,
        body: MessageTemplateRequest,
        response: { 200: json('The template as saved', MessageTemplate) },
      },
    },
    async (request) => {
      await updateMessageTemplate(commandContext(deps, request), request.params.key, request.body);
      return loadTemplate(deps.store, request.params.key);
    },
  );

  app.delete(
    '/api/message-templates/:key',
    {
      config: owner,
      schema: {
        summary: 'Reset a message template',
        description: 'The product’s own wording applies again.',
        params: MessageTemplateKeyParams,
        response: { 200: json('The template', MessageTemplate) },
      },
    },
    async (request) => {
      await updateMessageTemplate(commandContext(deps, request), request.params.key, null);
      return loadTemplate(deps.store, request.params.key);
    },
  );

  app.post(
    '/api/message-templates/:key/preview',
    {
      schema: {
        summary: 'Preview a message',
        description: 'The message as the renter would get it now, with their real data; with subject and body, a wording not saved yet. Writes nothing.',
        params: MessageTemplateKeyParams,
        body: MessagePreviewRequest,
        response: { 200: json('The message', MessagePreview), 404: notFound },
      },
    },
    async (request) => {
      const { customerId, subject, body } = request.body;
      const composed = await composeForCustomer(request.params.key, customerId, {
        pool: deps.pool,
        store: deps.store,
        publicUrl: publicUrlOf(deps),
        now: deps.clock.now(),
      });
      if (!composed) throw new NotFoundError('Customer not found');
      const saved = await loadTemplate(deps.store, request.params.key);
      const draft = { subject: subject ?? saved.subject, body: body ?? saved.body };
      // The draft's placeholders are checked as a save would check them.
      checkPlaceholders(draft);
      const rendered = renderTemplate(draft, composed.values);
      return { to: composed.to ?? '', subject: rendered.subject, body: rendered.body };
    },
  );

  app.get(
    '/api/messages',
    {
      schema: {
        summary: 'List sent messages',
        description: 'The outbox: every message to renters, pending, sent, failed or suppressed, newest first.',
        querystring: ListMessagesQuery,
        response: { 200: page('A page of messages', OutboxMessage) },
      },
    },
    async (request, reply) => {
      const { messages, paging } = await listMessages(deps.pool, request.query);
      return reply.headers(pageHeaders(paging)).send(messages);
    },
  );

  app.get(
    '/api/messages/:id',
    { schema: { summary: 'A sent message', params: IdParams, response: { 200: json('The message with its body', OutboxMessageDetail), 404: notFound } } },
    async (request) => {
      const message = await getMessage(deps.pool, request.params.id);
      if (!message) throw new NotFoundError('Message not found');
      return message;
    },
  );

  app.post(
    '/api/messages/:id/retry',
    {
      config: { roles: ['owner', 'manager'] },
      schema: {
        summary: 'Try a failed message again',
        description: 'A message that failed every attempt is tried once more, within seconds. Only a failed message can be tried again (409 otherwise).',
        params: IdParams,
        response: { 200: json('The message, pending again', OutboxMessageDetail), 404: notFound, 409: errorAnswer('The message has not failed') },
      },
    },
    async (request) => {
      const message = await getMessage(deps.pool, request.params.id);
      if (!message) throw new NotFoundError('Message not found');
      if (!(await retryFailedMessage(deps.pool, message.id)))
        throw new ConflictError(`Only a failed message can be tried again; this one is ${message.status}`);
      return (await getMessage(deps.pool, message.id))!;
    },
  );

  const knownCustomer = async (id: string) => {
    const customer = await getCustomer(deps.pool, id);
    if (!customer) throw new NotFoundError('Customer not found');
    return customer;
  };

  app.get(
    '/api/customers/:id/message-preferences',
    {
      schema: {
        summary: 'A renter’s message choices',
        params: IdParams,
        response: { 200: json('The messages they turned off', MessagePreferences), 404: notFound },
      },
    },
    async (request) => {
      await knownCustomer(request.params.id);
      return preferencesOf(deps, request.params.id);
    },
  );

  app.put(
    '/api/customers/:id/message-preferences',
    {
      config: { roles: ['owner', 'manager', 'clerk'] },
      schema: {
        summary: 'Save a renter’s message choices',
        description: 'The optional messages the renter does not want; legal notices are always sent.',
        params: IdParams,
        body: MessagePreferencesRequest,
        response: { 200: json('The choices as saved', MessagePreferences), 404: notFound },
      },
    },
    async (request) => {
      await knownCustomer(request.params.id);
      const result = await updateMessagePreferences(commandContext(deps, request), request.params.id, request.body.optOuts);
      if (result.position) await deps.afterAppend(result.position);
      return preferencesOf(deps, request.params.id);
    },
  );

  app.get(
    '/api/customers/:id/pre-lien-letter.pdf',
    {
      schema: {
        summary: 'The pre-lien notice as a printable letter',
        description: 'The newest pre-lien notice written to the renter, as a letter to print and mail; none written yet: the notice as it would read today.',
        params: IdParams,
        response: { 200: file('The letter, as a PDF', 'application/pdf'), 404: notFound },
      },
    },
    async (request, reply) => {
      const customer = await knownCustomer(request.params.id);
      const letter = await preLienLetterPdf(deps, customer, publicUrlOf(deps));
      return reply
        .type('application/pdf')
        .header('content-disposition', attachment(`pre-lien-notice-${customer.lastName}-${customer.firstName}.pdf`))
        .send(letter);
    },
  );
}

/** The renter's own message choices (portal). */
export async function messagePortalRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Customer portal', access: 'portal' });
  const portalContext = (request: FastifyRequest): CommandContext => ({
    store: deps.store,
    actor: { type: 'customer', id: request.customerId! },
    correlationId: request.id,
    now: deps.clock.now(),
  });

  app.get(
    '/api/customer/message-preferences',
    { schema: { summary: 'My message choices', response: { 200: json('The messages I turned off', MessagePreferences) } } },
    async (request) => preferencesOf(deps, request.customerId!),
  );

  app.put(
    '/api/customer/message-preferences',
    {
      schema: {
        summary: 'Save my message choices',
        description: 'The optional messages I do not want; legal notices are always sent.',
        body: MessagePreferencesRequest,
        response: { 200: json('My choices as saved', MessagePreferences) },
      },
    },
    async (request) => {
      const result = await updateMessagePreferences(portalContext(request), request.customerId!, request.body.optOuts);
      if (result.position) await deps.afterAppend(result.position);
      return preferencesOf(deps, request.customerId!);
    },
  );
}
