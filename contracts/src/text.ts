// Text the database cannot store: PostgreSQL refuses a NUL character in text, and a UTF-16
// surrogate without its pair is not a character at all. Any input carrying either is refused
// (400 naming the field) before it reaches a command or a query.

const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_MESSAGE = 'must not contain a NUL character or an unpaired surrogate';

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

interface Visit {
  value: unknown;
  key: string | null;
  parent: Visit | null;
}

function pathOf(visit: Visit, last?: string): string {
  const keys = last === undefined ? [] : [last];
  for (let at: Visit | null = visit; at && at.key !== null; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
}

/**
 * The path (`items.0.name`) of the first string, or object key, in `value` that is not storable
 * text, or null. Walks without recursion, so no nesting depth can overflow the stack.
 */
export function findUnstorableText(value: unknown): string | null {
  const pending: Visit[] = [{ value, key: null, parent: null }];
  while (pending.length > 0) {
    const visit = pending.pop()!;
    const current = visit.value;
    if (typeof current === 'string') {
      if (!isStorableText(current)) return pathOf(visit);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) pending.push({ value: current[i], key: String(i), parent: visit });
    } else if (current !== null && typeof current === 'object' && !ArrayBuffer.isView(current)) {
      for (const [key, inner] of Object.entries(current).reverse()) {
        if (!isStorableText(key)) return pathOf(visit, key.replace(new RegExp(UNSTORABLE.source, 'g'), '\uFFFD'));
        pending.push({ value: inner, key, parent: visit });
      }
    }
  }
  return null;
}
