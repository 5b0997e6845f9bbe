// Wakes this process's outbox worker soon after the messages reaction wrote rows, instead of
// waiting for its poll. A worker in another process finds them at its next poll.

const listeners = new Set<() => void>();

export function wakeOutbox(): void {
  for (const listener of listeners) listener();
}

export function onOutboxWake(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
