import ComingSoonPage from './coming-soon.tsx';

export default function CheckoutPage() {
  return <ComingSoonPage title="Checkout" />;
}
