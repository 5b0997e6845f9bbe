import { createHash } from 'node:crypto';

/**
 * A UUID derived from what a step acts on (name-based, like a UUID v5 over SHA-256): the same
 * parts always give the same id, so a step retried, repeated or raced writes to the same stream.
 */
export function derivedId(...parts: string[]): string {
  const bytes = createHash('sha256').update(parts.join('\u0000')).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
