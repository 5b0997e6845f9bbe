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
  if (issue.code === 'invalid_type') return `must be ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}`;
  return issue.message;
}

/** Parses a body, query or params object, or throws a ValidationError naming the first bad field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query' | 'params' = 'body'): z.output<S> {
  if (where === 'body' && (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value))) {
    throw new ValidationError('The request body must be a JSON object');
  }
  const result = schema.safeParse(value ?? {}, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = fieldName(issue.path) ?? (issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined);
  const message = describeIssue(issue);
  throw new ValidationError(field && issue.code !== 'unrecognized_keys' ? `${field}: ${message}` : message.charAt(0).toUpperCase() + message.slice(1), field);
}
