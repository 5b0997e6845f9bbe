import { PageHeader } from '../../components/page-header.tsx';
import { AuditLog } from '../../features/history/components/audit-log.tsx';

export default function AuditPage() {
  return (
    <>
      <PageHeader title="Audit Log" />
      <AuditLog />
    </>
  );
}
