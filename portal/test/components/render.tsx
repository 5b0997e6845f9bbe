// Renders a piece of the portal at an address, with the API answering what the test declares
// (`@storage/testing/component-api`, each answer checked against its contract). The portal has no
// providers of its own: its routes read the address through wouter, on jsdom's own history.

import { type Answer, declareAnswers } from '@storage/testing/component-api';
import { render } from '@testing-library/react';
import { PointerEventsCheckLevel, type UserEvent, userEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';

export type RenderOptions = { path?: string; api?: Answer[] };

export function renderPortal(ui: ReactNode, { path = '/', api = [] }: RenderOptions = {}) {
  declareAnswers(...api);
  window.history.replaceState(null, '', path);
  // No pause between keys, and no pointer-events check: it asks jsdom for the computed style of
  // every ancestor at each click, which was most of a dialog test's time.
  const user = userEvent.setup({ delay: null, pointerEventsCheck: PointerEventsCheckLevel.Never });
  return { user, ...render(ui) };
}

/** Types `text` into `field` in one go. */
export async function fill(user: UserEvent, field: HTMLElement, text: string): Promise<void> {
  await user.clear(field);
  await user.click(field);
  await user.paste(text);
}

/** The toast on screen: its title and its description. */
export function toastShown(): { title: string | null | undefined; description: string | null | undefined } {
  const toast = document.querySelector('.toast');
  return { title: toast?.querySelector('.toast-title')?.textContent, description: toast?.querySelector('.toast-description')?.textContent };
}
