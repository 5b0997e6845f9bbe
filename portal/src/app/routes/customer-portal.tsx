import ComingSoonPage from './coming-soon.tsx';

export default function CustomerPortalPage() {
  return <ComingSoonPage title="Customer Portal" />;
}
