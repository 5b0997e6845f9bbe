import type { ReactNode } from 'react';
import { CheckIcon, CrossIcon } from '../../../components/icons.tsx';

const oldWay = [
  'Two legacy systems to license, learn and keep in sync',
  'Keys, padlocks and office-hours access',
  'Paper invoices and payments at the front desk',
  'Occupancy and revenue pieced together by hand',
];

const newWay = [
  'One platform at 50% less cost',
  'Smart locks with mobile app control and 24/7 access',
  'Autopay, mobile payments and online card payments',
  'Live occupancy and revenue, per facility or combined',
];

type ComparisonColumnProps = { title: string; items: string[]; icon: ReactNode; className: string; children?: ReactNode };

function ComparisonColumn({ title, items, icon, className, children }: ComparisonColumnProps) {
  return (
    <div className={`comparison-column ${className}`}>
      <h3>{title}</h3>
      <ul>
        {items.map((item) => (
          <li key={item}>
            {icon}
            {item}
          </li>
        ))}
      </ul>
      {children}
    </div>
  );
}

export function Comparison() {
  return (
    <section className="section section-tinted" id="compare" aria-labelledby="compare-title">
      <div className="container">
        <div className="section-heading">
          <p className="eyebrow">Why switch</p>
          <h2 id="compare-title">The old way versus the new way</h2>
          <p>Replace a costlier pair of legacy systems with one platform.</p>
        </div>
        <div className="comparison">
          <ComparisonColumn title="The old way" items={oldWay} icon={<CrossIcon />} className="comparison-old" />
          <ComparisonColumn title="The new way" items={newWay} icon={<CheckIcon />} className="comparison-new">
            <p className="comparison-saving">
              <strong>50%</strong> less cost
            </p>
          </ComparisonColumn>
        </div>
      </div>
    </section>
  );
}
