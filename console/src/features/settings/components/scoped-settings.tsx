import { serverMessage } from '@storage/web-client/api';
import type { UseQueryResult } from '@tanstack/react-query';
import { Divider, Flex, Form, type FormInstance, Result, Skeleton, Switch, Typography } from 'antd';
import { Fragment, type ReactElement } from 'react';

// What the settings a facility may have of its own (billing, delinquency, protection plans, lease
// terms) share: the business's answer and the scoped facility's, loaded together, and the switch
// that has the facility follow the business's.

/** A setting's answer for a scope: what applies there, and the facility's own (null: it follows the business's). */
type ScopedAnswer = { effective: unknown; facility: unknown };

/** What a scoped settings form starts from. */
export type ScopedFormProps<A extends ScopedAnswer> = {
  /** The facility in the header's scope; null: the business's own settings. */
  facilityId: string | null;
  /** What applies to the business: a facility that switches to following it shows these. */
  businessEffective: A['effective'];
  /** The answer for the scope. */
  scoped: A;
};

/**
 * A skeleton while the business's answer or the scope's loads, the error if either failed, then
 * the form: started again from a new answer (another scope, a save, a change another card made).
 */
export function ScopedSettings<A extends ScopedAnswer>({
  facilityId,
  business,
  scoped,
  skeletonRows,
  errorTitle,
  children,
}: {
  facilityId: string | null;
  business: UseQueryResult<A>;
  scoped: UseQueryResult<A>;
  skeletonRows: number;
  errorTitle: string;
  children: (props: ScopedFormProps<A>) => ReactElement;
}) {
  if (business.isError || scoped.isError)
    return <Result status="error" title={errorTitle} subTitle={serverMessage((business.error ?? scoped.error) as Error)} />;
  if (!business.isSuccess || !scoped.isSuccess) return <Skeleton active paragraph={{ rows: skeletonRows }} />;
  return (
    <Fragment key={JSON.stringify([facilityId, scoped.data, business.data.effective])}>
      {children({ facilityId, businessEffective: business.data.effective, scoped: scoped.data })}
    </Fragment>
  );
}

/**
 * Whether the form's facility follows the business's settings: as saved (`followsBusiness`, the
 * form's starting value) and as the switch stands now (`following`). Never with no facility in scope.
 */
export function useFollowBusiness(form: FormInstance, facilityId: string | null, scoped: { facility: unknown }) {
  const followsBusiness = facilityId !== null && scoped.facility === null;
  const switched: boolean | undefined = Form.useWatch('followBusiness', form);
  return { followsBusiness, following: facilityId !== null && (switched ?? followsBusiness) };
}

/**
 * The form's `followBusiness` switch, with a facility in scope: its label, what off means, and a
 * rule under it. With none the field is kept, hidden (the business follows nobody).
 */
export function FollowBusinessSwitch({
  facilityId,
  id,
  label,
  offMeans,
  onChange,
}: {
  facilityId: string | null;
  /** The label's element id, unique on the page. */
  id: string;
  label: string;
  offMeans: string;
  onChange?: (follow: boolean) => void;
}) {
  if (facilityId === null) return <Form.Item name="followBusiness" hidden valuePropName="checked" />;
  return (
    <>
      <Flex justify="space-between" align="center" gap={16}>
        <Flex vertical>
          <Typography.Text strong id={id}>
            {label}
          </Typography.Text>
          <Typography.Text type="secondary">{offMeans}</Typography.Text>
        </Flex>
        <Form.Item name="followBusiness" valuePropName="checked" noStyle>
          <Switch aria-labelledby={id} onChange={onChange} />
        </Form.Item>
      </Flex>
      <Divider style={{ margin: '16px 0' }} />
    </>
  );
}
