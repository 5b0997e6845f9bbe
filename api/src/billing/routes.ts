import {
  CreditRefundRequest,
  CreditRequest,
  DeskPaymentPlan,
  DeskPaymentPlanQuery,
  DeskPaymentRequest,
  DeskReceipt,
  ReasonRequest,
  RefundAnswer,
  RefundRequest,
} from '@storage/contracts/billing';
import { InvoiceListItem } from '@storage/contracts/invoices';
import { derivedId } from '@storage/domain/commands/derived-id';
import { NotFoundError } from '@storage/domain/commands/errors';
import { cancelInvoice, writeOffInvoice } from '@storage/domain/invoices/commands';
import { giveCredit, planDeskPayment, recordDeskPayment } from '@storage/domain/payments/desk';
import { refundAccountCredit, refundPayment } from '@storage/domain/payments/refunds';
import { createPaymentProvider } from '@storage/platform/payments/configured-provider';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { IdParams } from '../http/params.ts';
import { errorAnswer, json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { getInvoice } from '../invoices/queries.ts';

// Money at the desk and money given back: a payment staff take (it pays open invoices oldest
// first, the rest becomes credit; what it would pay is shown before it is taken), a credit with a reason, a write-off and a void with a reason.
// Each is an event naming the staff member; none edits history.

export async function billingRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Billing', access: 'staff' });
  const takePayments = { roles: ['owner', 'manager', 'clerk'] } as const;
  const giveMoneyBack = { roles: ['owner', 'manager'] } as const;
  const provider = createPaymentProvider(deps, deps.pool);

  app.post(
    '/api/payments/:id/refund',
    {
      config: giveMoneyBack,
      schema: {
        summary: 'Refund a payment',
        description:
          "Gives back part or all of a payment (never more than it has left unrefunded), with a reason. A card payment is refunded through the payment provider: the refund is recorded as pending first, then issued once the provider has made it (a 409 saying the refund is pending is finished by the same request again, with the same Idempotency-Key, or by the payment reconciliation within minutes); any other is recorded as money handed back. The money is owed again: the invoice's open balance rises, and a paid invoice reopens (overdue when its due date has passed). With an Idempotency-Key, a repeat refunds once.",
        params: IdParams,
        body: RefundRequest,
        response: {
          201: json('The refund', RefundAnswer),
          404: errorAnswer('No such payment'),
          409: errorAnswer(
            'The payment cannot be refunded (account credit, or a written-off invoice), or the provider has not made the refund yet (it is pending)',
          ),
        },
      },
    },
    async (request, reply) => {
      const key = request.idempotency?.key;
      // The refund is named by the request's key, so a retry after a crash is the same refund at the provider and here.
      const refundId = key ? derivedId('payment-refund', request.params.id, key) : undefined;
      const { position, ...refund } = await refundPayment(commandContext(deps, request), deps.pool, provider, request.params.id, request.body, refundId);
      if (position) await deps.afterAppend(position);
      return reply.status(201).send(refund);
    },
  );

  app.post(
    '/api/customers/:id/credit-refunds',
    {
      config: giveMoneyBack,
      schema: {
        summary: 'Refund account credit',
        description:
          "Hands credit on the renter's account back to them (cash, a check, a card at the desk or a transfer), with a reason; never more than the credit.",
        params: IdParams,
        body: CreditRefundRequest,
        response: {
          201: json('Refunded', z.object({ refundId: z.string(), customerId: z.string(), amount: z.string() })),
          404: errorAnswer('No such customer'),
        },
      },
    },
    async (request, reply) => {
      const key = request.idempotency?.key;
      const refundId = key ? derivedId('credit-refund', request.params.id, key) : undefined;
      const { reference, ...refund } = request.body;
      const result = await refundAccountCredit(commandContext(deps, request), request.params.id, { ...refund, reference: reference ?? null }, refundId);
      if (result.position) await deps.afterAppend(result.position);
      return reply.status(201).send({ refundId: result.refundId, customerId: request.params.id, amount: refund.amount });
    },
  );

  app.post(
    '/api/customers/:id/payments',
    {
      // The receipt is named by the key: a repeat while the first is unanswered finishes the same receipt.
      config: { ...takePayments, rerunWhileRunning: true },
      schema: {
        summary: 'Take a payment at the desk',
        description:
          'Cash, a check (its number in reference), a card at the desk or a bank transfer. It pays the open invoices named (in that order), or all of them oldest due first, part of the last one when it runs out; what is left over becomes credit on the account. With an Idempotency-Key, a repeat records nothing twice.',
        params: IdParams,
        body: DeskPaymentRequest,
        response: { 201: json('What the payment paid, and any credit', DeskReceipt), 404: errorAnswer('No such customer') },
      },
    },
    async (request, reply) => {
      const key = request.idempotency?.key;
      // The receipt is named by the request's key, so a retry after a crash pays the same invoices once.
      const receiptId = key ? derivedId('desk-receipt', request.params.id, key) : undefined;
      const { reference, invoiceIds, ...payment } = request.body;
      const receipt = await recordDeskPayment(
        commandContext(deps, request),
        { ...payment, customerId: request.params.id, reference: reference ?? null, ...(invoiceIds && { invoiceIds }) },
        receiptId,
      );
      if (receipt.position) await deps.afterAppend(receipt.position);
      const { position: _position, planned: _planned, ...answer } = receipt;
      return reply.status(201).send(answer);
    },
  );

  app.get(
    '/api/customers/:id/payment-plan',
    {
      config: takePayments,
      schema: {
        summary: 'Preview a payment at the desk',
        description:
          'What a desk payment of this amount would pay were it taken now, worked out as taking it works it out: the open invoices oldest due first, each as far as it owes, and what would be left over as credit. Nothing is recorded.',
        params: IdParams,
        querystring: DeskPaymentPlanQuery,
        response: { 200: json('The invoices it would pay, and any credit', DeskPaymentPlan), 404: errorAnswer('No such customer') },
      },
    },
    // Computed on the streams by the function that takes the payment, so the preview cannot
    // disagree with the receipt: the read model's invoice list is paged and has no open balance.
    async (request) => planDeskPayment(deps, request.params.id, request.query.amount),
  );

  app.post(
    '/api/customers/:id/credits',
    {
      config: giveMoneyBack,
      schema: {
        summary: 'Give a credit',
        description: "Credit on the renter's account, with a reason: it pays their open invoices oldest first, and the next invoice uses the rest.",
        params: IdParams,
        body: CreditRequest,
        response: { 201: json('Credited', z.object({ customerId: z.string(), amount: z.string() })), 404: errorAnswer('No such customer') },
      },
    },
    async (request, reply) => {
      const key = request.idempotency?.key;
      const creditId = key ? derivedId('staff-credit', request.params.id, key) : undefined;
      const { amount, reason } = request.body;
      const result = await giveCredit(commandContext(deps, request), request.params.id, amount, reason, creditId);
      if (result.position) await deps.afterAppend(result.position);
      return reply.status(201).send({ customerId: request.params.id, amount });
    },
  );

  async function invoiceAnswer(id: string): Promise<InvoiceListItem> {
    const invoice = await getInvoice(deps.pool, id);
    if (!invoice) throw new NotFoundError('Invoice not found');
    return invoice;
  }

  app.post(
    '/api/invoices/:id/write-off',
    {
      config: giveMoneyBack,
      schema: {
        summary: 'Write off an invoice',
        description: 'What is still owed on an open invoice becomes bad debt, with a reason; its payments stand.',
        params: IdParams,
        body: ReasonRequest,
        response: { 200: json('The invoice, written off', InvoiceListItem), 404: errorAnswer('No such invoice'), 409: errorAnswer('The invoice is not open') },
      },
    },
    async (request) => {
      const result = await writeOffInvoice(commandContext(deps, request), request.params.id, request.body.reason);
      if (result.position) await deps.afterAppend(result.position);
      return invoiceAnswer(request.params.id);
    },
  );

  app.post(
    '/api/invoices/:id/void',
    {
      config: giveMoneyBack,
      schema: {
        summary: 'Void an invoice',
        description: 'Cancels an invoice nothing was paid on, with a reason.',
        params: IdParams,
        body: ReasonRequest,
        response: { 200: json('The invoice, voided', InvoiceListItem), 404: errorAnswer('No such invoice'), 409: errorAnswer('The invoice was paid on') },
      },
    },
    async (request) => {
      const result = await cancelInvoice(commandContext(deps, request), request.params.id, request.body.reason);
      if (result.position) await deps.afterAppend(result.position);
      return invoiceAnswer(request.params.id);
    },
  );
}
