import ComingSoonPage from './coming-soon.tsx';

export default function SettingsPage() {
  return <ComingSoonPage title="Settings" />;
}
