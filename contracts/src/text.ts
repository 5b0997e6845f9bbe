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

// Bidi controls that reorder the characters after them: the embeddings and overrides (U+202A–U+202E)
// and the isolates (U+2066–U+2069). In a name, "invoice\u202Efdp.exe" shows as "invoiceexe.pdf":
// text that reads as something it is not. They are stored as given (a record may already hold
// one), and every place that shows text to a person (the console, the portal, PDFs, CSV files)
// shows each as U+FFFD instead, so it reorders nothing and shows that something was there.
// Arabic and Hebrew need none of them: their letters are right-to-left by themselves, and the
// marks that only nudge neutral characters (U+200E, U+200F, U+061C) are left as they are.
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
const BIDI_CONTROLS = new RegExp(BIDI_CONTROL.source, 'g');

/** `text` with each bidi embedding, override or isolate control shown as U+FFFD. */
export function inertBidiControls(text: string): string {
  return BIDI_CONTROL.test(text) ? text.replace(BIDI_CONTROLS, '\uFFFD') : text;
}

/**
 * Applies inertBidiControls to every string in `value` (object keys too), however deep, changing it
 * in place: meant for a value just parsed from JSON. Walks without recursion, like findUnstorableText.
 */
export function inertBidiControlsIn<T>(value: T): T {
  const root = { value: value as unknown };
  const pending: Array<Record<string, unknown>> = [root];
  while (pending.length > 0) {
    const holder = pending.pop()!;
    for (const key of Object.keys(holder)) {
      const current = holder[key];
      if (typeof current === 'string') {
        if (BIDI_CONTROL.test(current)) holder[key] = inertBidiControls(current);
      } else if (current !== null && typeof current === 'object' && !ArrayBuffer.isView(current)) {
        pending.push(current as Record<string, unknown>);
      }
      if (BIDI_CONTROL.test(key)) {
        holder[inertBidiControls(key)] = holder[key];
        delete holder[key];
      }
    }
  }
  return root.value as T;
}
