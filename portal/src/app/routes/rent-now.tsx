import ComingSoonPage from './coming-soon.tsx';

export default function RentNowPage() {
  return <ComingSoonPage title="Rent a Unit" />;
}
