import { Link } from 'wouter';
import { Brand } from './brand.tsx';

export function SiteHeader() {
  return (
    <header className="site-header">
      <div className="container site-header-inner">
        <Brand />
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
    </header>
  );
}
