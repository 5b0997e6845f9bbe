import { SiteFooter } from '../../components/site-footer.tsx';
import { SiteHeader } from '../../components/site-header.tsx';
import { CallToAction } from '../../features/landing/components/call-to-action.tsx';
import { Comparison } from '../../features/landing/components/comparison.tsx';
import { FeatureGrid } from '../../features/landing/components/feature-grid.tsx';
import { Hero } from '../../features/landing/components/hero.tsx';

export function LandingPage() {
  return (
    <>
      <SiteHeader />
      <main>
        <Hero />
        <FeatureGrid />
        <Comparison />
        <CallToAction />
      </main>
      <SiteFooter />
    </>
  );
}
