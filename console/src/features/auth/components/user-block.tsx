import { UserOutlined } from '@ant-design/icons';
import type { AuthUser } from '@storage/contracts/auth';
import { Avatar, Flex, Typography } from 'antd';
import { useAuthUser } from '../api/get-auth-user.ts';

function fullName(user: AuthUser | undefined): string {
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ');
  return name || user?.email || 'User';
}

export function UserBlock() {
  const { data: user } = useAuthUser();
  return (
    <Flex gap={12} align="center" className="user-block">
      <Avatar size={40} src={user?.profileImageUrl || undefined} icon={<UserOutlined />} alt="" />
      <Flex vertical style={{ minWidth: 0 }}>
        <Typography.Text strong ellipsis>
          {fullName(user)}
        </Typography.Text>
        <Typography.Text type="secondary">Facility Manager</Typography.Text>
      </Flex>
    </Flex>
  );
}
