import { ConvertReservationRequest, type OnlineCheckout, type Reservation } from '@storage/contracts/reservations';
import { Alert, Form, Input, Typography } from 'antd';
import { useRef } from 'react';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { contractRule, showRefusalOnField } from '../../../lib/form-rules.ts';
import { formatDollars } from '../../../lib/format.ts';
import { useToast } from '../../../lib/toast.tsx';
import type { MoveInQuoteTerms } from '../../leases/api/get-move-in-quote.ts';
import { MoveInChoices } from '../../leases/components/move-in-button.tsx';
import { MoveInQuotePanel, useTermsQuote } from '../../leases/components/move-in-quote.tsx';
import { choiceLabels, isChoiceRefused, useQuotedChoices } from '../../leases/components/quoted-choices.ts';
import { NO_PLAN } from '../../leases/protection-words.ts';
import { type ConversionCustomer, useDecideReservation } from '../api/decide-reservation.ts';

/** A reservation staff chose to convert, and for whom (absent: its renter). */
export type Conversion = { reservation: Reservation; customer?: ConversionCustomer };

type ConvertValues = {
  startDate: string;
  depositAmount: string | null;
  /** NO_PLAN: none (as the selects hold it). */
  protectionPlanId: string;
  promotionId: string;
};

const fieldSchemas = ConvertReservationRequest.shape;

/** The fields a refused conversion may name, in words under each. */
const fieldLabels = { ...choiceLabels, startDate: 'Start date', depositAmount: 'Deposit' } as const;

/** An empty optional amount is no amount at all. */
const emptyAsNull = (value: string) => (value.trim() === '' ? null : value);

/** What a renter's own online payment means for staff about to move them in at the desk. */
export const onlineCheckoutWords: Record<OnlineCheckout, { tag: string; meaning: string }> = {
  paying: { tag: 'Paying online', meaning: 'The renter is paying online: converting now may leave their payment to be refunded.' },
  refunded: { tag: 'Online payment refunded', meaning: "The renter's online payment was refunded: the rental could not be made." },
};

/** Converting a reservation into a lease: the day, the deposit, a plan and a promotion, and what the renter pays at move-in. */
export function ConvertReservationDialog({
  conversion,
  onClose,
  onConverted,
}: {
  conversion: Conversion | null;
  onClose: () => void;
  onConverted: () => void;
}) {
  return (
    <FormDialog open={conversion !== null} title="Convert to Lease" width={600} onClose={onClose}>
      {conversion && <ConvertForm conversion={conversion} onDone={onClose} onConverted={onConverted} />}
    </FormDialog>
  );
}

/** Who moves in, as staff chose it. */
function whoMovesIn({ reservation: r, customer }: Conversion): { words: string; caution?: string } {
  const unit = `unit ${r.unitNumber} (${r.size}) at ${formatDollars(r.monthlyRate)}/month`;
  if (customer && 'createCustomer' in customer) return { words: `Add ${r.customerName} as a new customer and start a lease on ${unit}.` };
  if (customer && r.matchedCustomer)
    return {
      words: `Start a lease for ${r.matchedCustomer.name}, the existing customer, on ${unit}.`,
      caution: 'Only if you have checked that this renter is that customer.',
    };
  return { words: `Start a lease for ${r.customerName} on ${unit}.` };
}

function ConvertForm({ conversion, onDone, onConverted }: { conversion: Conversion; onDone: () => void; onConverted: () => void }) {
  const { reservation } = conversion;
  const [form] = Form.useForm<ConvertValues>();
  const decide = useDecideReservation();
  const toast = useToast();

  const startDate = Form.useWatch('startDate', form) ?? reservation.moveInDate;
  const depositAmount = Form.useWatch('depositAmount', form) ?? null;
  const protectionPlanId = Form.useWatch('protectionPlanId', { form, preserve: true }) ?? NO_PLAN;
  const promotionId = Form.useWatch('promotionId', { form, preserve: true }) ?? NO_PLAN;
  // Quoted at the unit's rate (the one the conversion starts the lease at), on the day and deposit as typed.
  const quoteTerms: MoveInQuoteTerms | null = fieldSchemas.startDate.safeParse(startDate).success
    ? {
        unitId: reservation.unitId,
        startDate,
        ...(depositAmount && { depositAmount: depositAmount.trim() }),
        ...(protectionPlanId && { protectionPlanId }),
        ...(promotionId && { promotionId }),
      }
    : null;
  const unquotable = quoteTerms?.depositAmount !== undefined && !fieldSchemas.depositAmount.safeParse(quoteTerms.depositAmount).success;
  const quoted = useTermsQuote(quoteTerms, unquotable);
  const { offers, withdrawn, chosenAgain } = useQuotedChoices(form, quoted);

  // A second press before the form shows it is saving (a double click) is the same conversion: it is ignored.
  const saving = useRef(false);
  const convert = async ({ startDate, depositAmount, protectionPlanId, promotionId }: ConvertValues) => {
    if (saving.current) return;
    saving.current = true;
    try {
      await decide.mutateAsync({
        reservationId: reservation.id,
        decision: 'convert',
        customer: conversion.customer,
        // A select not shown (nothing offered) holds no value: none.
        terms: { startDate, depositAmount, protectionPlanId: protectionPlanId || null, promotionId: promotionId || null },
      });
    } catch (error) {
      showRefusalOnField(form, error as Error, fieldLabels);
      toast.failure('Failed to convert reservation', error as Error);
      return;
    } finally {
      saving.current = false;
    }
    toast.success('Reservation converted to a lease');
    onConverted();
    onDone();
  };

  const who = whoMovesIn(conversion);
  const checkout = reservation.onlineCheckout;
  return (
    <DialogForm<ConvertValues>
      form={form}
      initialValues={{ startDate: reservation.moveInDate, depositAmount: null, protectionPlanId: NO_PLAN, promotionId: NO_PLAN }}
      onValuesChange={chosenAgain}
      onFinish={convert}
      saving={decide.isPending}
      submitLabel="Convert to lease"
      onCancel={onDone}
    >
      {checkout && (
        <Alert
          type={checkout === 'paying' ? 'warning' : 'info'}
          showIcon
          style={{ marginBottom: 16 }}
          title={onlineCheckoutWords[checkout].meaning}
          data-testid="online-checkout-meaning"
        />
      )}
      <Typography.Paragraph>
        {who.words}
        {who.caution && (
          <Typography.Text type="warning" style={{ display: 'block' }}>
            {who.caution}
          </Typography.Text>
        )}
      </Typography.Paragraph>
      <FieldGrid>
        <GridField
          label="Start Date"
          name="startDate"
          required
          rules={[{ required: true, message: 'Choose the start date' }, contractRule('Start date', fieldSchemas.startDate)]}
        >
          <Input type="date" />
        </GridField>
        <GridField label="Deposit" name="depositAmount" normalize={emptyAsNull} rules={[contractRule('Deposit', fieldSchemas.depositAmount)]}>
          <Input prefix="$" inputMode="decimal" placeholder="0.00" autoComplete="off" />
        </GridField>
      </FieldGrid>
      {quoteTerms && offers && <MoveInChoices offers={offers} withdrawn={withdrawn} />}
      <MoveInQuotePanel quoted={quoted} takenBack={isChoiceRefused} />
    </DialogForm>
  );
}
