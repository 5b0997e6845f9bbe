import { Link } from 'wouter';

export function CallToAction() {
  return (
    <section className="section" aria-labelledby="cta-title">
      <div className="container">
        <div className="cta">
          <div>
            <h2 id="cta-title">Ready to run your facility on one platform?</h2>
            <p>Start a free trial and bring your customers, units, locks and billing together, at 50% less cost.</p>
          </div>
          <div className="button-row">
            <a href="/api/login" className="button button-light button-large">
              Start Your Free Trial
            </a>
            <Link href="/customer-portal" className="button button-outline-light button-large">
              Customer Portal
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}
