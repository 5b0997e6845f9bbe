// The component tests' setup (vitest project `component`, jsdom): the API answered by msw, every
// request the test did not declare an error, the page emptied after each test, and the few browser
// features jsdom lacks that antd reaches for.

import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { apiServer } from './component-api.ts';

// antd's Grid and responsive components ask for media queries; jsdom has no layout, so none match.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// antd measures tabs, text areas and overflowing lists; jsdom has no ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// antd reads the scrollbar's width through getComputedStyle(element, '::-webkit-scrollbar'); jsdom
// implements no pseudo-elements and logs "Not implemented" for each call: the element's own style.
const computedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => computedStyle(element);

// antd scrolls a field with an error into view; jsdom has no layout to scroll.
Element.prototype.scrollIntoView ??= () => {};
window.scrollTo = () => {};

// A screen's lazy parts (a dialog's form, a route) load on first use: on a loaded machine that takes
// longer than the library's default second to wait for what a test finds.
configure({ asyncUtilTimeout: 10_000 });

// A request the test declared no answer for fails (msw 3's onUnhandledFrame, msw 2's
// onUnhandledRequest), and so does the test that made it: the screen may have shown the failure as
// an error state the test did not look at.
const unhandled: string[] = [];
beforeAll(() => {
  apiServer.listen({ onUnhandledFrame: 'error' });
  apiServer.events.on('request:unhandled', ({ request }) => {
    const url = new URL(request.url);
    unhandled.push(`${request.method} ${url.pathname}${url.search}`);
  });
});
beforeEach(() => {
  unhandled.length = 0;
});
afterEach(() => {
  // What the screen asked for while the test ran: a request still in flight when the screen is
  // unmounted (a polled list) may reach the server after its answers are reset.
  const asked = unhandled.splice(0);
  cleanup();
  apiServer.resetHandlers();
  window.history.replaceState(null, '', '/');
  if (asked.length > 0) throw new Error(`The screen asked the API for what the test did not declare:\n  ${[...new Set(asked)].join('\n  ')}`);
});
afterAll(() => apiServer.close());
