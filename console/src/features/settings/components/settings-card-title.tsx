import { Flex } from 'antd';
import type { ReactNode } from 'react';

export function SettingsCardTitle({ icon, text }: { icon: ReactNode; text: string }) {
  return (
    <Flex gap={8} align="center">
      {icon}
      {text}
    </Flex>
  );
}
