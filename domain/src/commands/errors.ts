// Errors a command can end in; the HTTP layer maps each to its status code.

/** The request breaks a business rule (400). */
export class DomainRuleError extends Error {
  readonly field: string | undefined;
  constructor(message: string, field?: string) {
    super(message);
    this.name = 'DomainRuleError';
    this.field = field;
  }
}

/** The thing named does not exist (404); `field`: the request's field that named it. */
export class NotFoundError extends Error {
  readonly field: string | undefined;
  constructor(message: string, field?: string) {
    super(message);
    this.name = 'NotFoundError';
    this.field = field;
  }
}

/** The request conflicts with current state: a taken unique key, a lost race (409). */
export class ConflictError extends Error {
  readonly field: string | undefined;
  constructor(message: string, field?: string) {
    super(message);
    this.name = 'ConflictError';
    this.field = field;
  }
}

/**
 * The request was taken and part of it recorded, but a step outside our control (the payment
 * provider) did not answer yet (409): a repeat with the same Idempotency-Key finishes it, so this
 * answer is not the one kept for the key.
 */
export class UnfinishedError extends ConflictError {
  constructor(message: string) {
    super(message);
    this.name = 'UnfinishedError';
  }
}

/**
 * A command lost the race for its stream every time it tried (409): nothing was decided, so a
 * repeat may still do it (so it is unfinished: not the answer kept for an Idempotency-Key). Unlike
 * a rule's conflict ("already paid"), it says nothing about the state.
 */
export class ConcurrencyExhaustedError extends UnfinishedError {
  constructor() {
    super('Someone else changed this at the same time. Please try again.');
    this.name = 'ConcurrencyExhaustedError';
  }
}

/** The signed-in user may not do this (403). */
export class ForbiddenError extends Error {
  constructor(message = 'Forbidden') {
    super(message);
    this.name = 'ForbiddenError';
  }
}
