import ComingSoonPage from './coming-soon.tsx';

export default function AvailableUnitsPage() {
  return <ComingSoonPage title="Available Units" />;
}
