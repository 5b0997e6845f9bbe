// Keeps keyboard focus inside an open dialog or drawer. antd's own focus lock pulls focus back only
// when it lands elsewhere in the page; a dialog is the last thing in the document, so Tab on its
// last control would leave the page for the browser's toolbar instead. This wraps Tab from the
// last control to the first, and Shift+Tab from the first to the last (WAI-ARIA dialog pattern).

const TABBABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]',
  '[contenteditable="true"]',
].join(',');

function tabbables(container: Element): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (element) => element.tabIndex >= 0 && element.getClientRects().length > 0 && !element.closest('[aria-hidden="true"], [inert]'),
  );
}

function wrapTab(event: KeyboardEvent): void {
  if (event.key !== 'Tab' || event.defaultPrevented) return;
  const active = document.activeElement;
  const dialog = active?.closest('[role="dialog"]');
  if (!dialog) return;
  const inside = tabbables(dialog);
  const first = inside[0];
  const last = inside.at(-1);
  if (!first || !last) return;
  if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  } else if (event.shiftKey && active === first) {
    event.preventDefault();
    last.focus();
  }
}

/** Installs the wrap once for the whole console. */
export function installDialogFocusWrap(): void {
  document.addEventListener('keydown', wrapTab);
}
