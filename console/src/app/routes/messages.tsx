import { PageHeader } from '../../components/page-header.tsx';
import { SentMessages } from '../../features/messages/components/sent-messages.tsx';

export default function MessagesPage() {
  return (
    <>
      <PageHeader title="Sent Messages" subtitle="Every message to renters: pending, sent, failed, or not sent because the renter opted out" />
      <SentMessages />
    </>
  );
}
