import { CardSetup, PaymentMethodParams, PaymentProfile, SaveCardRequest, SetAutopayRequest } from '@storage/contracts/autopay';
import { streams } from '@storage/contracts/events';
import { DomainRuleError, NotFoundError } from '@storage/domain/commands/errors';
import { type CommandContext, loadAggregate } from '@storage/domain/commands/handle';
import { customerAggregate } from '@storage/domain/customers/customer';
import { profileAggregate, removePaymentMethod, savePaymentMethod, setAutopay } from '@storage/domain/payments/profile';
import type { Position } from '@storage/eventstore/port';
import { createPaymentProvider } from '@storage/platform/payments/configured-provider';
import { CardRefusedError, type CardToSave } from '@storage/platform/payments/provider';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { getCustomer } from '../customers/queries.ts';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { IdParams } from '../http/params.ts';
import { errorAnswer, json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { ValidationError } from '../http/validate.ts';
import { paymentProfileOf } from './queries.ts';

// Autopay's routes: the renter's saved cards and enrolment (portal session only: each answers for
// the session's own customer), and staff's view of a renter's (GET /api/customers/{id}/payment-profile).

export async function autopayRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const provider = createPaymentProvider(deps, deps.pool);

  await plugin.register(async (scope) => {
    const app = routeGroup(scope, { tag: 'Customer portal', access: 'portal' });

    /** The renter acts as themselves. */
    const renterContext = (request: FastifyRequest): CommandContext => ({
      ...commandContext(deps, request),
      actor: { type: 'customer', id: request.customerId! },
    });
    const answer = async (request: FastifyRequest, position: Position | null) => {
      if (position) await deps.afterAppend(position);
      return paymentProfileOf(deps.pool, request.customerId!, provider.name);
    };

    async function renter(request: FastifyRequest) {
      const { state } = await loadAggregate(deps.store, streams.customer(request.customerId!), customerAggregate);
      if (state.status !== 'current') throw new NotFoundError('Customer not found');
      return { customerId: request.customerId!, email: state.fields.email };
    }

    app.get(
      '/api/customer/payment-methods',
      {
        schema: {
          summary: 'My saved cards and autopay',
          description: 'The cards saved (brand, last 4 digits and expiry; never the number) and whether autopay charges one on each due date.',
          response: { 200: json('The saved cards and autopay', PaymentProfile) },
        },
      },
      async (request) => paymentProfileOf(deps.pool, request.customerId!, provider.name),
    );

    app.post(
      '/api/customer/payment-methods/setup',
      {
        config: { idempotent: false },
        schema: {
          summary: 'Start saving a card',
          description:
            "With Stripe: the renter's Customer and a SetupIntent, whose client secret Stripe Elements confirms. With the test provider: nothing to start (clientSecret null).",
          response: { 200: json('What the card form needs', CardSetup) },
        },
      },
      async (request) => ({ provider: provider.name, clientSecret: (await provider.startCardSetup(await renter(request))).clientSecret }),
    );

    app.post(
      '/api/customer/payment-methods',
      {
        // The card fields must never be kept, not even as an Idempotency-Key's answer; a repeat saves another card reference.
        config: { idempotent: false },
        schema: {
          summary: 'Save a card',
          description:
            'Test provider: the card fields (4242 4242 4242 4242 charges, 4000 0000 0000 0002 is declined when charged, 4000 0025 0000 3155 needs the renter). Stripe: the SetupIntent Elements confirmed. `autopay: true` also turns autopay on with it. The number is never stored or recorded.',
          body: SaveCardRequest,
          response: { 201: json('The saved cards and autopay', PaymentProfile), 400: errorAnswer('The card was refused; the message says why') },
        },
      },
      async (request, reply) => {
        const { cardNumber, expiry, cvc, setupIntentId, autopay } = request.body;
        let card: CardToSave;
        if (provider.name === 'stripe') {
          if (!setupIntentId) throw new ValidationError('setupIntentId: is required', 'setupIntentId');
          card = { setupIntentId };
        } else {
          for (const [field, value] of Object.entries({ cardNumber, expiry, cvc })) if (!value) throw new ValidationError(`${field}: is required`, field);
          card = { cardNumber: cardNumber!, expiry: expiry!, cvc: cvc! };
        }
        let saved: Awaited<ReturnType<typeof provider.saveCard>>;
        try {
          saved = await provider.saveCard(await renter(request), card, new Date());
        } catch (error) {
          if (error instanceof CardRefusedError) {
            const field =
              'setupIntentId' in card
                ? 'setupIntentId'
                : /expiration/.test(error.message)
                  ? 'expiry'
                  : /security code/.test(error.message)
                    ? 'cvc'
                    : 'cardNumber';
            throw new DomainRuleError(`${field}: ${error.message}`, field);
          }
          throw error;
        }
        const result = await savePaymentMethod(renterContext(request), request.customerId!, provider.name, saved, autopay ?? false);
        return reply.status(201).send(await answer(request, result.position));
      },
    );

    app.delete(
      '/api/customer/payment-methods/:id',
      {
        schema: {
          summary: 'Remove a saved card',
          description: 'Autopay stops with the card it charged.',
          params: PaymentMethodParams,
          response: { 200: json('The saved cards and autopay', PaymentProfile), 404: errorAnswer('No such card of mine') },
        },
      },
      async (request) => {
        const ctx = renterContext(request);
        // Another renter's card is not found: this renter's profile has no such card.
        const card = (await loadAggregate(deps.store, streams.paymentProfile(request.customerId!), profileAggregate)).state.cards.find(
          (c) => c.paymentMethodId === request.params.id && !c.removed,
        );
        const result = await removePaymentMethod(ctx, request.customerId!, request.params.id);
        if (card && result.events.length > 0) await provider.removeCard(card.providerPaymentMethodId);
        return answer(request, result.position);
      },
    );

    app.put(
      '/api/customer/autopay',
      {
        schema: {
          summary: 'Turn autopay on or off',
          description: 'On: the card named (or the newest) is charged on each invoice due date for what is owed on it. Off: nothing is charged automatically.',
          body: SetAutopayRequest,
          response: { 200: json('The saved cards and autopay', PaymentProfile), 404: errorAnswer('No such card of mine') },
        },
      },
      async (request) => {
        const { enabled, paymentMethodId } = request.body;
        const result = await setAutopay(renterContext(request), request.customerId!, enabled, paymentMethodId);
        return answer(request, result.position);
      },
    );
  });

  await plugin.register(async (scope) => {
    const app = routeGroup(scope, { tag: 'Customers', access: 'staff' });
    app.get(
      '/api/customers/:id/payment-profile',
      {
        schema: {
          summary: "A customer's saved cards and autopay",
          description: 'Whether autopay is on, the cards saved (never a number), and the latest autopay charge of each invoice.',
          params: IdParams,
          response: { 200: json('The payment profile', PaymentProfile) },
        },
      },
      async (request) => {
        const { id } = request.params;
        if (!(await getCustomer(deps.pool, id))) throw new NotFoundError('Customer not found');
        return paymentProfileOf(deps.pool, id, provider.name);
      },
    );
  });
}
