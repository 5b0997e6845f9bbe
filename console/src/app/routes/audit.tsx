import { PageHeader } from '../../components/page-header.tsx';
import { AuditLog } from '../../features/history/components/audit-log.tsx';
import { EntityPicker } from '../../features/search/components/entity-picker.tsx';

export default function AuditPage() {
  return (
    <>
      <PageHeader title="Audit Log" />
      <AuditLog entityPicker={EntityPicker} />
    </>
  );
}
