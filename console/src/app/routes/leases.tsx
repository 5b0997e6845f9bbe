import ComingSoonPage from './coming-soon.tsx';

export default function LeasesPage() {
  return <ComingSoonPage title="Lease Agreements" />;
}
