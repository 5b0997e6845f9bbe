import type { MessageTemplateKey } from '@storage/contracts/enums';
import { messageTemplateLabels } from '@storage/contracts/messages';
import { serverMessage } from '@storage/web-client/api';
import { Alert, Card, Divider, Flex, Skeleton, Switch, Tag, Typography } from 'antd';
import { useToast } from '../../../lib/toast.tsx';
import { useMessagePreferences, useSaveMessagePreferences } from '../api/messages.ts';

/** A renter's choice of messages (customer page): the optional ones can be turned off; legal notices are always sent. */
export function MessagePreferencesCard({ customerId, canChange }: { customerId: string; canChange: boolean }) {
  const preferences = useMessagePreferences(customerId);
  const save = useSaveMessagePreferences(customerId);
  const toast = useToast();

  const toggle = (key: MessageTemplateKey, wanted: boolean) => {
    const optOuts = preferences.data?.optOuts ?? [];
    const next = wanted ? optOuts.filter((k) => k !== key) : [...optOuts, key];
    save.mutate(next, toast.outcome('Message choices saved', 'Failed to save message choices'));
  };

  return (
    <Card title="Messages to the renter" size="small" data-testid="message-preferences-card">
      {preferences.isPending && <Skeleton active />}
      {preferences.isError && <Alert type="error" title="Could not load message choices" description={serverMessage(preferences.error)} />}
      {preferences.isSuccess && (
        <Flex vertical gap={8}>
          {preferences.data.optional.map((key) => (
            <Flex key={key} justify="space-between" align="center" gap={12}>
              <Typography.Text id={`message-pref-${key}`}>{messageTemplateLabels[key]}</Typography.Text>
              {/* A member who may not change the choice (an auditor) reads it in words, not as a switch they cannot move. */}
              {canChange ? (
                <Switch
                  aria-labelledby={`message-pref-${key}`}
                  checked={!preferences.data.optOuts.includes(key)}
                  disabled={save.isPending}
                  onChange={(wanted) => toggle(key, wanted)}
                />
              ) : (
                <Tag aria-describedby={`message-pref-${key}`}>{preferences.data.optOuts.includes(key) ? 'Turned off' : 'Sent'}</Tag>
              )}
            </Flex>
          ))}
          <Divider style={{ margin: '4px 0' }} />
          <Typography.Text type="secondary">
            Always sent (notices the law requires): {preferences.data.alwaysSent.map((key) => messageTemplateLabels[key]).join(', ')}.
          </Typography.Text>
        </Flex>
      )}
    </Card>
  );
}
