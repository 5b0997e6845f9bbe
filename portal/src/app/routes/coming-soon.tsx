import { Link } from 'wouter';
import { SiteFooter } from '../../components/site-footer.tsx';
import { SiteHeader } from '../../components/site-header.tsx';

/** Public pages that a later release builds: named, with a way back home. */
export default function ComingSoonPage({ title }: { title: string }) {
  return (
    <>
      <SiteHeader />
      <main className="container notice-page">
        <p className="eyebrow">Coming soon</p>
        <h1>{title}</h1>
        <p>This page arrives in a later release.</p>
        <Link href="/" className="button button-primary">
          Back to home
        </Link>
      </main>
      <SiteFooter />
    </>
  );
}
