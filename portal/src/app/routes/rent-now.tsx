import { useSearchParams } from 'wouter';
import { SiteFooter } from '../../components/site-footer.tsx';
import { SiteHeader } from '../../components/site-header.tsx';
import { RentNowWizard } from '../../features/rent-now/components/rent-now-wizard.tsx';

export default function RentNowPage() {
  const [params] = useSearchParams();
  return (
    <>
      <SiteHeader />
      <main className="container rent-now-page">
        <header className="section-heading">
          <p className="eyebrow">Rent online</p>
          <h1>Rent a Unit</h1>
          <p>Reserve your storage unit in three quick steps.</p>
        </header>
        <RentNowWizard initialUnitId={params.get('unit')} />
      </main>
      <SiteFooter />
    </>
  );
}
