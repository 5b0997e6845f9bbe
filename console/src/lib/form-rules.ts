import { ApiError } from '@storage/web-client/api';
import type { FormInstance, FormRule } from 'antd';
import type { ZodType } from 'zod';

const isEmpty = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** Whether the contract lets the field be left out (absent or null). */
export const isOptional = (schema: ZodType) => schema.safeParse(undefined).success || schema.safeParse(null).success;

/**
 * Checks a form field with the contract's own schema, so the form refuses what the server would
 * refuse. A field left empty passes when the contract lets it be left out (an optional deposit,
 * phone or note); the form then sends no value for it.
 */
export function contractRule(label: string, schema: ZodType): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      if (isEmpty(value) && isOptional(schema)) return;
      const result = schema.safeParse(value ?? '');
      if (!result.success) throw new Error(`${label} ${result.error.issues[0]?.message ?? 'is invalid'}`);
    },
  };
}

/**
 * A refusal (400) that names one of `labels`' fields, in words to show under that field: the
 * server's message after the field's label ("Temporary password is too easy to guess: ..."), or
 * null. For the rules only the server checks (a new password's strength), so they are said where
 * the person is typing.
 */
export function refusalOfField(error: Error, labels: Readonly<Record<string, string>>): { field: string; message: string } | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  let refusal: { field?: unknown; message?: unknown };
  try {
    refusal = JSON.parse(error.body);
  } catch {
    return null;
  }
  const { field, message } = refusal;
  if (typeof field !== 'string' || typeof message !== 'string' || !Object.hasOwn(labels, field)) return null;
  const words = message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
  return { field, message: `${labels[field]} ${words}` };
}

/** Shows `refusalOfField` under its field of `form`; the field's own rules clear it once it is edited. */
export function showRefusalOnField<Values>(form: FormInstance<Values>, error: Error, labels: Readonly<Partial<Record<keyof Values & string, string>>>): void {
  const refusal = refusalOfField(error, labels as Record<string, string>);
  if (refusal) form.setFields([{ name: refusal.field as never, errors: [refusal.message] }]);
}
