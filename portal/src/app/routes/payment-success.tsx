import ComingSoonPage from './coming-soon.tsx';

export default function PaymentSuccessPage() {
  return <ComingSoonPage title="Payment Confirmation" />;
}
