import { LockIcon, ShieldIcon, ThermometerIcon } from '../../../components/icons.tsx';

export function UnitFeatures() {
  return (
    <ul className="unit-features" aria-label="Features">
      <li>
        <ThermometerIcon />
        Climate Controlled
      </li>
      <li>
        <ShieldIcon />
        24/7 Security
      </li>
      <li>
        <LockIcon />
        Smart Lock
      </li>
    </ul>
  );
}
