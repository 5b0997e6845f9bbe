// Browser tests drive Debian's Chromium through playwright-core (no browser is downloaded).

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // As a user who asked the system for less motion: dialogs and toasts appear at once
  // (console/src/app/provider.tsx), so a test neither waits for an animation nor checks a dialog's
  // colours halfway through its fade (axe once measured a fading button's contrast at 3.8:1).
  '--force-prefers-reduced-motion',
];
