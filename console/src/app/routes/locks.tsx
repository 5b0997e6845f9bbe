import ComingSoonPage from './coming-soon.tsx';

export default function LocksPage() {
  return <ComingSoonPage title="Smart Locks" />;
}
