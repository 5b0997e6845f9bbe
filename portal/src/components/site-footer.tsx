import { Link } from 'wouter';
import { Brand } from './brand.tsx';

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container site-footer-grid">
        <div className="site-footer-about">
          <Brand />
          <p>Climate-controlled storage units with 24/7 access, and one platform to run the whole facility.</p>
        </div>
        <nav aria-label="Renters">
          <h2>Renters</h2>
          <Link href="/available-units">Available Units</Link>
          <Link href="/rent-now">Rent a Unit</Link>
          <Link href="/customer-portal">Customer Portal</Link>
        </nav>
        <nav aria-label="Operators">
          <h2>Operators</h2>
          <a href="/api/login">Business Dashboard</a>
          <a href="/api/login">Start Your Free Trial</a>
        </nav>
        <address className="site-footer-contact">
          <h2>Contact</h2>
          <p>Questions about a unit, a bill or your access?</p>
          <p>
            Renters reach us through the <Link href="/customer-portal">Customer Portal</Link>; facility operators through the{' '}
            <a href="/api/login">Business Dashboard</a>.
          </p>
        </address>
      </div>
      <div className="container site-footer-legal">
        <p>© 2025 Self Storage. All rights reserved.</p>
      </div>
    </footer>
  );
}
