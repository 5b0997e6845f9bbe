import { ClockCircleOutlined, EnvironmentOutlined, HomeOutlined, KeyOutlined, PhoneOutlined, UserOutlined } from '@ant-design/icons';
import { accessHoursWords } from '@storage/contracts/access-hours';
import type { Facility } from '@storage/contracts/facilities';
import { serverMessage } from '@storage/web-client/api';
import { Card, Divider, Empty, Flex, Result, Skeleton, Tag, Typography } from 'antd';
import { Fragment } from 'react';
import { useFacilities } from '../../../lib/facilities.ts';
import { AddFacilityButton } from './add-facility-button.tsx';
import { EditFacilityButton } from './edit-facility-button.tsx';

/** The facilities managed in Settings: owners and managers add and edit them; unit counts come from the units. */
export function FacilitiesCard({ canManage }: { canManage: boolean }) {
  const facilities = useFacilities();

  return (
    <Card
      title={
        <Flex gap={8} align="center">
          <HomeOutlined />
          Facilities
        </Flex>
      }
      extra={canManage && <AddFacilityButton />}
    >
      {facilities.isPending && <Skeleton active paragraph={{ rows: 4 }} />}
      {facilities.isError && <Result status="error" title="Could not load facilities" subTitle={serverMessage(facilities.error)} />}
      {facilities.isSuccess && facilities.data.length === 0 && <Empty description="No facilities yet" />}
      {facilities.isSuccess &&
        facilities.data.map((facility, index) => (
          <Fragment key={facility.id}>
            {index > 0 && <Divider style={{ margin: '16px 0' }} />}
            <FacilityRow facility={facility} canManage={canManage} />
          </Fragment>
        ))}
    </Card>
  );
}

function FacilityRow({ facility, canManage }: { facility: Facility; canManage: boolean }) {
  return (
    <Flex gap={16} align="flex-start" justify="space-between" data-testid="facility-row">
      <Flex vertical gap={4} style={{ minWidth: 0 }}>
        <Flex gap={8} align="center" wrap>
          <Typography.Text strong>{facility.name}</Typography.Text>
          <Tag>
            {facility.occupiedUnits}/{facility.totalUnits} occupied
          </Tag>
        </Flex>
        <Typography.Text type="secondary">
          <EnvironmentOutlined className="card-line-icon" />
          {facility.address}
        </Typography.Text>
        <Flex gap={16} wrap>
          <Typography.Text type="secondary">
            <PhoneOutlined className="card-line-icon" />
            {facility.phone ?? '—'}
          </Typography.Text>
          <Typography.Text type="secondary">
            <UserOutlined className="card-line-icon" />
            {facility.managerName ?? '—'}
          </Typography.Text>
          <Typography.Text type="secondary" data-testid="facility-time-zone">
            <ClockCircleOutlined className="card-line-icon" />
            {facility.timeZone.replaceAll('_', ' ')}
          </Typography.Text>
          <Typography.Text type="secondary" data-testid="facility-access-hours">
            <KeyOutlined className="card-line-icon" />
            Access hours: {accessHoursWords(facility.accessHours)}
          </Typography.Text>
        </Flex>
      </Flex>
      {canManage && <EditFacilityButton facility={facility} />}
    </Flex>
  );
}
