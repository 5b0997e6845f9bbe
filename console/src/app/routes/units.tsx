import ComingSoonPage from './coming-soon.tsx';

export default function UnitsPage() {
  return <ComingSoonPage title="Units" />;
}
