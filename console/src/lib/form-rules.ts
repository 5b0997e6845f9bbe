import type { FormRule } from 'antd';
import type { ZodType } from 'zod';

/** Checks a form field with the contract's own schema, so the form refuses what the server would refuse. */
export function contractRule(label: string, schema: ZodType): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const result = schema.safeParse(value ?? '');
      if (!result.success) throw new Error(`${label} ${result.error.issues[0]?.message ?? 'is invalid'}`);
    },
  };
}
