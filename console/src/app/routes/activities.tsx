import { PageHeader } from '../../components/page-header.tsx';
import { ActivitiesList } from '../../features/activities/components/activities-list.tsx';

export default function ActivitiesPage() {
  return (
    <>
      <PageHeader title="Recent Activity" />
      <ActivitiesList />
    </>
  );
}
