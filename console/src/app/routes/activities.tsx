import ComingSoonPage from './coming-soon.tsx';

export default function ActivitiesPage() {
  return <ComingSoonPage title="Recent Activity" />;
}
