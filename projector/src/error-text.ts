/**
 * An error's message for the log and projection_failures, with the database's own words when a
 * wrapper (slonik's "Query violates a not NULL integrity constraint.") keeps them in its cause.
 */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error && cause.message && !error.message.includes(cause.message)) return `${error.message} (${cause.message})`;
  return error.message;
}
