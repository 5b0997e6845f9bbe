import pg from 'pg';

// Every SQL statement this process sends through the pg driver (slonik, the event store, BullMQ's
// PostgreSQL backend, listeners), told to whoever listens: for tests and benchmarks that count
// the round trips a piece of work costs. Counting, not timing: the counts do not depend on load.

type Listener = (text: string) => void;
const listeners = new Set<Listener>();
let installed = false;

function install() {
  if (installed) return;
  installed = true;
  const originalQuery = pg.Client.prototype.query;
  pg.Client.prototype.query = function toldQuery(this: pg.Client, ...args: unknown[]) {
    if (listeners.size > 0) {
      const config = args[0] as string | { text?: string } | undefined;
      const text = typeof config === 'string' ? config : (config?.text ?? '');
      for (const listener of listeners) listener(text);
    }
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof originalQuery;
}

/** Calls `listener` with the text of every statement sent from now on; returns the way to stop. */
export function onEveryStatement(listener: Listener): () => void {
  install();
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The statements sent while `work` runs (by anyone in this process), each as one line of text. */
export async function statementsOf<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const stop = onEveryStatement((text) => statements.push(text.replace(/\s+/g, ' ').trim()));
  try {
    return { result: await work(), statements };
  } finally {
    stop();
  }
}
