import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Brand } from './brand.tsx';

export function SiteHeader() {
  // On a phone the links and buttons fold into a menu behind one button; wider screens show them all.
  const [menuOpen, setMenuOpen] = useState(false);
  const [location] = useLocation();
  const [openedAt, setOpenedAt] = useState(location);
  if (openedAt !== location) {
    // A link followed inside the single-page app closes the menu.
    setOpenedAt(location);
    setMenuOpen(false);
  }
  return (
    <header className={`site-header${menuOpen ? ' site-header-open' : ''}`}>
      <div className="container site-header-inner">
        <Brand />
        <button
          type="button"
          className="site-menu-button"
          aria-expanded={menuOpen}
          aria-controls="site-menu"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            {menuOpen ? <path d="M6 6l12 12M18 6 6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
        <div className="site-menu" id="site-menu">
          <nav className="site-nav" aria-label="Main">
            <a href="/#features">Features</a>
            <a href="/#compare">Why switch</a>
            <Link href="/available-units">Available Units</Link>
          </nav>
          <div className="site-header-actions">
            <Link href="/customer-portal" className="button button-ghost">
              Customer Portal
            </Link>
            {/* The staff login is a server redirect, so this leaves the single-page app. */}
            <a href="/api/login" className="button button-primary">
              Business Dashboard
            </a>
          </div>
        </div>
      </div>
    </header>
  );
}
