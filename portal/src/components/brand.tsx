import { Link } from 'wouter';
import { StorageIcon } from './icons.tsx';

export function Brand() {
  return (
    <Link href="/" className="brand" aria-label="Self Storage home">
      <span className="brand-mark">
        <StorageIcon />
      </span>
      <span className="brand-name">Self Storage</span>
    </Link>
  );
}
