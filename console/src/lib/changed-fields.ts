/** The fields of an edit form whose values differ from what was loaded: an edit sends only these, so history records real changes only. */
export function changedFields<T extends object>(before: T, after: T): Partial<T> {
  return Object.fromEntries(Object.entries(after).filter(([field, value]) => before[field as keyof T] !== value)) as Partial<T>;
}
