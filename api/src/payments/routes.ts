import rateLimit from '@fastify/rate-limit';
import { streams } from '@storage/contracts/events';
import {
  ConfirmTestPaymentRequest,
  ConfirmTestPaymentResponse,
  CreateAccountPaymentIntentRequest,
  CreatePaymentIntentRequest,
  CreatePaymentIntentResponse,
  PaymentConfig,
  PaymentIntentId,
  PaymentReceiptParams,
  PaymentRecordedResponse,
  SimulateWebhookRequest,
} from '@storage/contracts/payments';
import { BUSINESS_SETTINGS_SCOPE } from '@storage/contracts/settings';
import { ConflictError, ForbiddenError, NotFoundError } from '@storage/domain/commands/errors';
import { loadAggregate } from '@storage/domain/commands/handle';
import { customerAggregate } from '@storage/domain/customers/customer';
import { invoiceAggregate, openBalance } from '@storage/domain/invoices/invoice';
import { startAccountPayment } from '@storage/domain/payments/account-payment';
import { intentForInvoice } from '@storage/domain/payments/intents';
import { cardPaymentReceipt } from '@storage/domain/payments/receipt';
import { type PaymentReport, recordIntentPayment } from '@storage/domain/payments/record';
import { createPaymentProvider } from '@storage/platform/payments/configured-provider';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import Stripe from 'stripe';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { callerOf } from '../http/caller.ts';
import { commandContext } from '../http/command-context.ts';
import { attachment } from '../http/csv.ts';
import { errorAnswer, file, json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { ValidationError } from '../http/validate.ts';
import { findPortalPayment } from '../portal/payments.ts';
import { findCustomerById } from '../portal/queries.ts';
import { getSettings } from '../settings/queries.ts';
import { cardReceipt, listedPaymentReceipt, paymentSummary, receiptFileName, receiptPdf } from './receipt.ts';

const IntentParams = z.strictObject({ id: PaymentIntentId });

// Anyone may report a payment (the success page does, signed out), and each report asks the
// provider, so each address gets a modest number of reports.
const PAYMENT_REPORTS_PER_WINDOW = 60;
const PAYMENT_REPORT_WINDOW = '10 minutes';

/** What Stripe posts (documented; the route reads it raw, to check its signature). */
const StripeEvent = z.looseObject({
  id: z.string(),
  type: z.string().describe('e.g. payment_intent.succeeded, the only type acted on'),
  data: z.looseObject({ object: z.looseObject({}) }),
});

export async function paymentRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Payments', access: 'public' });
  const provider = createPaymentProvider(deps, deps.pool);

  await app.register(rateLimit, {
    global: false,
    ...(deps.redis ? { redis: deps.redis, nameSpace: 'storage-payment-report-rate-limit-' } : {}),
  });

  async function record(request: FastifyRequest, report: Omit<PaymentReport, 'reportedBy'>): Promise<Omit<PaymentRecordedResponse, 'summary'>> {
    const reportedBy = (await callerOf(request)).customerId ?? undefined;
    const { position, ...recorded } = await recordIntentPayment(commandContext(deps, request), deps.pool, provider, { ...report, reportedBy });
    if (position) await deps.afterAppend(position);
    return recorded;
  }

  app.get(
    '/api/payments/config',
    {
      schema: { summary: 'Payment configuration', description: 'Which card form the checkout shows.', response: { 200: json('The provider', PaymentConfig) } },
    },
    async (): Promise<PaymentConfig> => ({ provider: provider.name, publishableKey: provider.publishableKey }),
  );

  // The answer carries the intent's client secret: never kept for Idempotency-Key replays (the
  // route is idempotent by itself: an invoice has one live intent, which a repeat gets back).
  app.post(
    '/api/create-payment-intent',
    {
      config: { access: 'portal', idempotent: false },
      schema: {
        summary: 'Start paying an invoice',
        description: "Creates (or gets back) the payment intent for the invoice's open balance; the amount sent is ignored.",
        body: CreatePaymentIntentRequest,
        response: {
          200: json("The intent, for the provider's card form", CreatePaymentIntentResponse),
          403: errorAnswer('The invoice belongs to another customer'),
          404: errorAnswer('No such invoice'),
        },
      },
    },
    async (request): Promise<CreatePaymentIntentResponse> => {
      // The browser's amount is ignored: the intent charges the invoice's open balance.
      const { invoiceId } = request.body;
      const { state: invoice } = await loadAggregate(deps.store, streams.invoice(invoiceId), invoiceAggregate);
      if (invoice.status === 'none') throw new NotFoundError('Invoice not found');
      const { customerId, status } = invoice.fields;
      if (customerId !== request.customerId) throw new ForbiddenError('This invoice belongs to another customer');
      if (status === 'paid') throw new ConflictError('This invoice is already paid');
      if (status === 'cancelled') throw new ConflictError('This invoice is cancelled and cannot be paid');
      const { state: customer } = await loadAggregate(deps.store, streams.customer(customerId), customerAggregate);
      if (customer.status === 'none') throw new NotFoundError('Customer not found');
      // What is still owed on it, as the payment's record checks it: an invoice paid in part (at the
      // desk, say) is charged the rest, not its whole amount, which the record would refund.
      const amount = openBalance(invoice);
      const intent = await intentForInvoice(deps.pool, provider, { amount, invoiceId, customerId, customerEmail: customer.fields.email });
      if (intent.kind === 'succeeded') {
        // Its report has not arrived (a closed tab, a late webhook): record it now, and pay nothing twice.
        await record(request, { paymentIntentId: intent.intentId });
        throw new ConflictError('This invoice is already paid');
      }
      if (intent.kind === 'processing') throw new ConflictError('A payment of this invoice is being processed; try again in a few minutes');
      return { clientSecret: intent.clientSecret, paymentIntentId: intent.id, amount };
    },
  );

  // As above, never kept for Idempotency-Key replays: a customer has one live account intent, which a repeat gets back.
  app.post(
    '/api/customer/account-payment-intent',
    {
      config: { access: 'portal', idempotent: false },
      schema: {
        summary: 'Start paying an amount toward my balance',
        description:
          'Creates (or gets back) the payment intent for an amount from the minimum due up to the whole balance (GET /api/customer/account says both). When it succeeds, the server pays the open invoices with it, oldest first; what is left over is credit on the account.',
        body: CreateAccountPaymentIntentRequest,
        response: {
          200: json("The intent, for the provider's card form", CreatePaymentIntentResponse),
          400: errorAnswer('The amount is outside the range, or nothing is owed'),
        },
      },
    },
    async (request): Promise<CreatePaymentIntentResponse> => {
      const { amount } = request.body;
      const intent = await startAccountPayment({ pool: deps.pool, store: deps.store, provider }, request.customerId!, amount, deps.clock.now());
      if (intent.kind === 'succeeded') {
        // An earlier payment went through and was not reported yet: recorded now; the balance it leaves is to be looked at again.
        await record(request, { paymentIntentId: intent.intentId });
        throw new ConflictError('Your previous payment has just been recorded: check your balance before paying again');
      }
      if (intent.kind === 'processing') throw new ConflictError('A payment toward your balance is being processed; try again in a few minutes');
      return { clientSecret: intent.clientSecret, paymentIntentId: intent.id, amount };
    },
  );

  app.post(
    '/api/test-provider/payment-intents/:id/confirm',
    {
      config: { access: 'portal' },
      schema: {
        summary: 'Pay with the test provider',
        description: "The built-in test provider's card form (only while Stripe is not configured).",
        params: IntentParams,
        body: ConfirmTestPaymentRequest,
        response: {
          200: json('The outcome, as Stripe would answer it', ConfirmTestPaymentResponse),
          403: errorAnswer('The payment belongs to another customer'),
        },
      },
    },
    async (request): Promise<ConfirmTestPaymentResponse> => {
      if (!('confirmIntent' in provider)) throw new NotFoundError('Not Found');
      const { id } = request.params;
      const intent = await provider.retrieveIntent(id);
      if (!intent) throw new NotFoundError('Payment intent not found');
      if (intent.customerId !== request.customerId) throw new ForbiddenError('This payment belongs to another customer');
      const outcome = await provider.confirmIntent(id, request.body, new Date());
      if (outcome.status === 'unknown') throw new NotFoundError('Payment intent not found');
      if (outcome.status === 'already_succeeded') throw new ConflictError('This payment has already succeeded');
      if (outcome.status === 'canceled') throw new ConflictError('This payment was replaced by a newer one: reload the page to pay');
      return { paymentIntentId: id, ...outcome };
    },
  );

  const reportLimit = {
    rateLimit: {
      max: PAYMENT_REPORTS_PER_WINDOW,
      timeWindow: PAYMENT_REPORT_WINDOW,
      errorResponseBuilder: () => ({ statusCode: 429, message: 'Too many payment reports from this address. Please try again later.' }),
    },
  };
  app.post(
    '/api/stripe/webhook/simulate',
    {
      config: reportLimit,
      schema: {
        summary: 'Report a payment',
        description:
          "The checkout's success page reports that a payment went through; the provider is asked, and the payment is recorded once. The portal session of the renter who paid also gets what it paid, their balance after it and their gate access (summary).",
        body: SimulateWebhookRequest,
        response: { 200: json('What was recorded', PaymentRecordedResponse) },
      },
    },
    async (request): Promise<PaymentRecordedResponse> => {
      const { paymentIntentId, invoiceId, customerId } = request.body;
      const recorded = await record(request, { paymentIntentId, invoiceId, customerId });
      // Read from the session's own renter's streams: another renter's payment is not found there.
      const renter = (await callerOf(request)).customerId;
      const summary = renter && !recorded.refunded ? await paymentSummary(deps, renter, recorded.paymentIntentId, deps.clock.now()) : null;
      return { ...recorded, summary };
    },
  );

  app.get(
    '/api/customer/payments/:paymentId/receipt.pdf',
    {
      config: { access: 'portal' },
      schema: {
        summary: 'The receipt of my payment as PDF',
        description:
          'The receipt of a payment on my account, by its id in my payments list (GET /api/customer/payments), or by the intent id (pi_…) of a card payment I just made: the amount, the day, how it was paid, each invoice it paid, any part kept as credit, and what was refunded of it.',
        params: PaymentReceiptParams,
        response: {
          200: file('The receipt, as a PDF to download', 'application/pdf'),
          404: errorAnswer('No such payment on my account'),
        },
      },
    },
    async (request, reply) => {
      const { paymentId } = request.params;
      const customer = await findCustomerById(deps.pool, request.customerId!);
      if (!customer) throw new NotFoundError('Payment not found');
      // A card payment just made is read from the renter's streams (its projection may be behind); a listed one from their ledger.
      const receipt = paymentId.startsWith('pi_')
        ? await cardPaymentReceipt(deps.store, customer.id, paymentId).then((found) => found && cardReceipt(found))
        : await findPortalPayment(deps.pool, customer.id, paymentId).then((found) => found && listedPaymentReceipt(found));
      if (!receipt) throw new NotFoundError('Payment not found');
      const { businessProfile } = await getSettings(deps.pool, BUSINESS_SETTINGS_SCOPE, undefined);
      const renter = { firstName: customer.first_name, lastName: customer.last_name, address: customer.address };
      return reply
        .type('application/pdf')
        .header('content-disposition', attachment(receiptFileName(receipt)))
        .send(await receiptPdf(receipt, renter, businessProfile));
    },
  );

  // Stripe signs the exact bytes it sends, so this route reads its body raw.
  await app.register(async (plugin) => {
    const webhook = plugin.withTypeProvider<ZodTypeProvider>();
    webhook.removeContentTypeParser('application/json');
    webhook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    webhook.post(
      '/api/stripe/webhook',
      {
        // Stripe sends no Idempotency-Key; the route records a payment once by itself.
        config: { access: 'webhook', idempotent: false },
        schema: {
          summary: "Stripe's webhook",
          description: 'Stripe reports events here (only while Stripe is configured); a succeeded payment of an invoice is recorded once.',
          rawBody: StripeEvent,
          response: {
            200: json('Received', PaymentRecordedResponse.partial().extend({ received: z.literal(true) })),
            404: errorAnswer('Stripe is not configured'),
          },
        },
      },
      async (request) => {
        const verifyWebhook = 'verifyWebhook' in provider ? provider.verifyWebhook : null;
        if (!verifyWebhook) throw new NotFoundError('Not Found');
        const signature = request.headers['stripe-signature'];
        if (typeof signature !== 'string') throw new ValidationError('stripe-signature: is required', 'stripe-signature');
        if (!Buffer.isBuffer(request.body)) throw new ValidationError('The request body must be the JSON event Stripe signed');
        let event: Stripe.Event;
        try {
          event = verifyWebhook(request.body, signature);
        } catch (error) {
          if (error instanceof Stripe.errors.StripeSignatureVerificationError)
            throw new ValidationError('The webhook signature is invalid', 'stripe-signature');
          throw error;
        }
        // Other events, and payments that are neither for an invoice nor toward a renter's balance, need no answer but receipt.
        if (event.type !== 'payment_intent.succeeded') return { received: true as const };
        const { id, metadata } = event.data.object;
        if (!metadata.invoiceId && !metadata.customerId) return { received: true as const };
        return { received: true as const, ...(await record(request, { paymentIntentId: id })) };
      },
    );
  });
}
