import pg from 'pg';

// `COPY … FROM STDIN` on a pg client, without pg-copy-streams: the rows are already one string
// (COPY's text format), so one CopyData message carries them. The object is a pg "submittable":
// the client hands it the connection and the server's answers in order.

/** Text as a value of COPY's text format: backslash, tab, newline and carriage return escaped. */
export function copyText(text: string): string {
  return COPY_SPECIAL.test(text) ? text.replace(COPY_SPECIAL_ALL, (c) => COPY_ESCAPES[c]!) : text;
}

const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIAL_ALL = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A null in COPY's text format. */
export const COPY_NULL = '\\N';

class CopyFromStdin {
  private readonly text: string;
  private readonly rows: string;
  private readonly settle: { resolve: (rows: number) => void; reject: (error: Error) => void };
  private copied = 0;
  private failed = false;

  constructor(text: string, rows: string, settle: { resolve: (rows: number) => void; reject: (error: Error) => void }) {
    this.text = text;
    this.rows = rows;
    this.settle = settle;
  }

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleCopyInResponse(connection: { sendCopyFromChunk(chunk: Buffer): void; endCopyFrom(): void }): void {
    if (this.rows.length > 0) connection.sendCopyFromChunk(Buffer.from(this.rows, 'utf8'));
    connection.endCopyFrom();
  }

  handleCommandComplete(message: { text: string }): void {
    this.copied = Number.parseInt(message.text.replace(/^COPY /, ''), 10);
  }

  handleError(error: Error): void {
    this.failed = true;
    this.settle.reject(error);
  }

  handleReadyForQuery(): void {
    if (!this.failed) this.settle.resolve(this.copied);
  }

  // Answers a COPY FROM does not get; a statement that is not one ends in an error.
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

/**
 * Runs `statement` (a `COPY table (columns) FROM STDIN`) with `rows`, lines of COPY's text format
 * each ending in a newline; resolves to the number of rows copied.
 */
export function copyFrom(client: pg.ClientBase, statement: string, rows: string): Promise<number> {
  if (!/^COPY .* FROM STDIN$/is.test(statement.trim())) throw new Error(`Not a COPY … FROM STDIN: ${statement}`);
  return new Promise((resolve, reject) => {
    client.query(new CopyFromStdin(statement, rows, { resolve, reject }) as unknown as pg.QueryConfig);
  });
}

/** A connection of its own (no pool) for COPY, which slonik's connections do not offer: a bulk writer's, such as a rebuild's. */
export interface CopyingConnection {
  copy(statement: string, rows: string): Promise<number>;
  end(): Promise<void>;
}

/** Opens a CopyingConnection and runs `setup` (SET statements, say) on it first. */
export async function openCopyingConnection(connectionUri: string, setup: readonly string[] = []): Promise<CopyingConnection> {
  const client = new pg.Client({ connectionString: connectionUri });
  // A connection that breaks fails its statements; the event must not crash the process.
  client.on('error', () => {});
  await client.connect();
  try {
    for (const statement of setup) await client.query(statement);
  } catch (error) {
    await client.end();
    throw error;
  }
  return {
    copy: (statement, rows) => copyFrom(client, statement, rows),
    end: () => client.end(),
  };
}
