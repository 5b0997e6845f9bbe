import ComingSoonPage from './coming-soon.tsx';

export default function ReportsPage() {
  return <ComingSoonPage title="Reports" />;
}
