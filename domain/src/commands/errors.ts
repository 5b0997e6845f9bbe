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

/** The thing named does not exist (404). */
export class NotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
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

/** The signed-in user may not do this (403). */
export class ForbiddenError extends Error {
  constructor(message = 'Forbidden') {
    super(message);
    this.name = 'ForbiddenError';
  }
}
