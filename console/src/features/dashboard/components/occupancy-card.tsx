import type { BuildingOccupancy } from '@storage/contracts/dashboard';
import { Card, Empty, Flex, Progress, Skeleton, Typography } from 'antd';
import { formatPercent } from '../../../lib/format.ts';
import { byFacility, occupancyColor, occupancyPercent, occupancyTitle } from '../occupancy.ts';

export function OccupancyCard({ buildings }: { buildings: readonly BuildingOccupancy[] | undefined }) {
  if (!buildings) {
    return (
      <Card title="Facility Occupancy">
        <Skeleton active paragraph={{ rows: 3 }} />
      </Card>
    );
  }
  const facilities = byFacility(buildings);
  return (
    <Card title={occupancyTitle(buildings)} data-testid="occupancy-card">
      {buildings.length === 0 && <Empty description="No units yet" image={Empty.PRESENTED_IMAGE_SIMPLE} />}
      <Flex vertical gap={20}>
        {facilities.map((facility) => (
          <section key={facility.facilityId ?? 'unassigned'} aria-label={facility.facilityName}>
            {facilities.length > 1 && (
              <Typography.Title level={5} style={{ marginTop: 0 }}>
                {facility.facilityName}
              </Typography.Title>
            )}
            <div className="occupancy-grid">
              {facility.buildings.map((building) => (
                <BuildingBar key={building.building} building={building} />
              ))}
            </div>
          </section>
        ))}
      </Flex>
    </Card>
  );
}

function BuildingBar({ building }: { building: BuildingOccupancy }) {
  const percent = occupancyPercent(building);
  const label = `Building ${building.building}`;
  return (
    <Flex vertical gap={4} data-testid="building-occupancy">
      <Flex justify="space-between" gap={8}>
        <Typography.Text strong ellipsis={{ tooltip: label }}>
          {label}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
          {building.occupied}/{building.total} occupied · {formatPercent(percent)}
        </Typography.Text>
      </Flex>
      <Progress percent={percent} showInfo={false} strokeColor={occupancyColor(percent)} aria-label={`${label}: ${formatPercent(percent)} occupied`} />
    </Flex>
  );
}
