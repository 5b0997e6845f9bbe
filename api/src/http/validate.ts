import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';

/** Bad input: answered 400 with a message that names the field. */
export class ValidationError extends Error {
  readonly field: string | undefined;
  readonly statusCode = 400;
  constructor(message: string, field?: string) {
    super(message);
    this.name = 'ValidationError';
    this.field = field;
  }
}

function fieldName(path: ReadonlyArray<PropertyKey>): string | undefined {
  return path.length > 0 ? path.map(String).join('.') : undefined;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
  if (issue.code === 'invalid_value') return `must be one of: ${issue.values.map(String).join(', ')}`;
  // zod says a number with a fraction where a whole one is wanted is not of type `int`.
  if (issue.code === 'invalid_type' && issue.expected === 'int') return 'must be a whole number';
  if (issue.code === 'invalid_type') return `must be ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}`;
  return issue.message;
}

/** The first issue of a failed parse, as the 400 that names its field ("email: is required", "Unknown field: foo"). */
function validationErrorOf(error: z.ZodError): ValidationError {
  const issue = error.issues[0]!;
  const field = fieldName(issue.path) ?? (issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined);
  const message = describeIssue(issue);
  return new ValidationError(field && issue.code !== 'unrecognized_keys' ? `${field}: ${message}` : message.charAt(0).toUpperCase() + message.slice(1), field);
}

/** Whether a request part's schema accepts it missing (a body whose fields may all be left out: `.prefault({})`). */
export const acceptsMissing = (schema: z.ZodType): boolean => schema.safeParse(undefined).success;

/**
 * How every route reads its request: Fastify hands each declared part (params, body, query,
 * headers) to the contract's zod schema, and the handler gets the parsed value. A failure is
 * the 400 that names the first bad field. A body must be a JSON object, or may be missing when
 * its schema accepts that.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  const isBody = httpPart === 'body';
  const mayBeMissing = isBody && acceptsMissing(schema);
  return (value: unknown) => {
    // Fastify passes a missing part as null.
    const missing = value === undefined || value === null;
    if (isBody && !(missing && mayBeMissing) && (missing || typeof value !== 'object' || Array.isArray(value))) {
      return { error: new ValidationError('The request body must be a JSON object') };
    }
    const result = schema.safeParse(missing ? (isBody ? undefined : {}) : value, { reportInput: true });
    return result.success ? { value: result.data } : { error: validationErrorOf(result.error) };
  };
};
