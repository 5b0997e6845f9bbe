import { act, render, screen } from '@testing-library/react';
import { theme } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProvider } from '../../src/app/provider.tsx';

// The console follows the system's reduce-motion setting, as the person changes it.

const original = window.matchMedia;

/** A system whose reduce-motion setting the test switches, telling the page as a browser does. */
function systemSetting(reduce: boolean) {
  const listeners = new Set<() => void>();
  const state = { reduce };
  window.matchMedia = (query: string) =>
    ({
      get matches() {
        return query === '(prefers-reduced-motion: reduce)' && state.reduce;
      },
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: (_: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
      dispatchEvent: () => false,
    }) as unknown as MediaQueryList;
  return {
    set(reduce: boolean) {
      state.reduce = reduce;
      for (const listener of listeners) listener();
    },
  };
}

function Motion() {
  const { token } = theme.useToken();
  return <p>motion {token.motion ? 'on' : 'off'}</p>;
}

describe('reduced motion', () => {
  afterEach(() => {
    window.matchMedia = original;
  });

  it('turns antd motion off while the system asks for less motion, and on again when it no longer does', async () => {
    const system = systemSetting(false);
    render(
      <AppProvider>
        <Motion />
      </AppProvider>,
    );
    expect(screen.getByText('motion on')).toBeTruthy();
    act(() => system.set(true));
    expect(await screen.findByText('motion off')).toBeTruthy();
    act(() => system.set(false));
    expect(await screen.findByText('motion on')).toBeTruthy();
  });
});
