import ComingSoonPage from './coming-soon.tsx';

export default function BillingPage() {
  return <ComingSoonPage title="Billing & Invoices" />;
}
