import { Button } from 'antd';
import { useLocation } from 'wouter';
import { OnDemandAlert } from '../../../components/on-demand.tsx';
import { useSettings } from '../api/get-settings.ts';

/**
 * Asks an owner or manager to fill in the business profile while it is empty (a fresh install
 * without the demo data): renters who ask whom to contact are shown its name, phone and email.
 */
export function BusinessProfilePrompt({ canEdit }: { canEdit: boolean }) {
  const { data: settings } = useSettings();
  const [, navigate] = useLocation();
  if (!canEdit || !settings || settings.businessProfile.name) return null;
  return (
    <OnDemandAlert
      type="warning"
      showIcon
      title="Your business profile is empty"
      description="Renters who ask how to reach you see no business name, phone or email. Add them in Settings → Business Profile."
      action={
        <Button size="small" type="primary" onClick={() => navigate('/settings')}>
          Fill in profile
        </Button>
      }
    />
  );
}
