import type { FormRule } from 'antd';
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
