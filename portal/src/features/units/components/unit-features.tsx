import { type UnitFeatures as Features, type UnitFeatureBadge, unitFeatureBadges } from '@storage/contracts/unit-features';
import type { ReactNode } from 'react';
import { LockIcon, StorageIcon, ThermometerIcon, UnitsIcon } from '../../../components/icons.tsx';

const icons: Record<UnitFeatureBadge['kind'], ReactNode> = {
  climate: <ThermometerIcon />,
  'drive-up': <StorageIcon />,
  floor: <UnitsIcon />,
  lock: <LockIcon />,
};

/** What staff said the unit offers, and nothing else: a unit nobody described shows no badge. */
export function UnitFeatures({ features }: { features: Features }) {
  const badges = unitFeatureBadges(features);
  if (badges.length === 0) return null;
  return (
    <ul className="unit-features" aria-label="Features">
      {badges.map((badge) => (
        <li key={badge.kind}>
          {icons[badge.kind]}
          {badge.text}
        </li>
      ))}
    </ul>
  );
}
