/** Today in the user's own calendar, as YYYY-MM-DD (what a date input holds). */
export function todayLocalIsoDate(): string {
  return new Date().toLocaleDateString('en-CA');
}
