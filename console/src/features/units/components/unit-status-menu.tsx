import { DownOutlined, SwapOutlined } from '@ant-design/icons';
import type { Unit } from '@storage/contracts/units';
import { Button, Dropdown } from 'antd';
import { useToast } from '../../../lib/toast.tsx';
import { useChangeUnitStatus } from '../api/change-unit-status.ts';
import { unitStatusLabel, unitStatusOptions } from '../unit-status.ts';

/** Staff put a unit into maintenance and back; whether a change is allowed (a lease occupies a unit) is the server's call. */
export function UnitStatusMenu({ unit }: { unit: Unit }) {
  const changeStatus = useChangeUnitStatus();
  const toast = useToast();

  const items = unitStatusOptions.map(({ value, label }) => ({ key: value, label, disabled: value === unit.status }));

  const choose = ({ key }: { key: string }) => {
    const status = unitStatusOptions.find((option) => option.value === key)?.value;
    if (!status) return;
    changeStatus.mutate(
      { unitId: unit.id, change: { status } },
      toast.outcome(`Unit ${unit.unitNumber} set to ${unitStatusLabel(status)}`, 'Failed to change unit status'),
    );
  };

  return (
    <Dropdown menu={{ items, onClick: choose, selectable: true, selectedKeys: [unit.status] }} trigger={['click']}>
      <Button type="text" icon={<SwapOutlined />} loading={changeStatus.isPending} aria-label={`Change status of unit ${unit.unitNumber}`}>
        Status <DownOutlined />
      </Button>
    </Dropdown>
  );
}
