import { DeskPaymentRequest } from '@storage/contracts/billing';
import { DeskPaymentMethod, paymentMethodLabels } from '@storage/contracts/enums';
import { Input, Select } from 'antd';
import type { ReactNode } from 'react';
import { contractRule } from '../lib/form-rules.ts';
import { FieldGrid, GridField } from './field-grid.tsx';

/** The ways money is taken or handed back at the desk. */
export const deskMethodOptions = DeskPaymentMethod.options.map((method) => ({ value: method, label: paymentMethodLabels[method] }));

type DeskPaymentFieldsProps = {
  /** The form's names of the three fields. */
  names: { amount: string; method: string; reference: string };
  /** The method chosen (a check asks its number). */
  method: DeskPaymentMethod | undefined;
  amountExtra?: ReactNode;
  autoFocus?: boolean;
};

/**
 * Money taken at the desk (Take Payment, the payment at move-in): amount, method and reference,
 * checked as the desk payment request checks them.
 */
export function DeskPaymentFields({ names, method, amountExtra, autoFocus = false }: DeskPaymentFieldsProps) {
  return (
    <FieldGrid>
      <GridField label="Amount" name={names.amount} required rules={[contractRule('Amount', DeskPaymentRequest.shape.amount)]} extra={amountExtra}>
        <Input prefix="$" placeholder="0.00" inputMode="decimal" autoComplete="off" autoFocus={autoFocus} />
      </GridField>
      <GridField label="Method" name={names.method}>
        <Select options={deskMethodOptions} />
      </GridField>
      <GridField
        wide
        label={method === 'check' ? 'Check Number' : 'Reference'}
        name={names.reference}
        rules={[contractRule('Reference', DeskPaymentRequest.shape.reference)]}
      >
        <Input autoComplete="off" />
      </GridField>
    </FieldGrid>
  );
}
