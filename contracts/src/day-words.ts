/** 'Mar 1, 2025' from a calendar day (YYYY-MM-DD), as the screens and the server's own words write a day. */
export function dayInWords(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}
