import type { ReactNode } from 'react';
import { CardIcon, ChartIcon, CustomersIcon, LockIcon, ShieldIcon, UnitsIcon } from '../../../components/icons.tsx';

const features: ReadonlyArray<{ title: string; description: string; icon: ReactNode }> = [
  {
    title: 'Customer CRM',
    description: 'One customer database with contact details, emergency contacts, status and the full history of every renter.',
    icon: <CustomersIcon />,
  },
  {
    title: 'Smart Lock Fleet',
    description: 'Every smart lock with its status, battery level and last check-in, and renters open their unit from the mobile app.',
    icon: <LockIcon />,
  },
  {
    title: 'Billing & Payments',
    description: 'Invoices, autopay and mobile payments, with online card payments built in, so rent arrives on time.',
    icon: <CardIcon />,
  },
  {
    title: 'Unit Management',
    description: 'Every unit by building, size, rate and status, including climate-controlled units, ready to rent online.',
    icon: <UnitsIcon />,
  },
  {
    title: 'Analytics & Reports',
    description: 'Revenue, occupancy and outstanding balances, for one facility or all of them combined.',
    icon: <ChartIcon />,
  },
  {
    title: 'Access Control',
    description: '24/7 access for renters in good standing, with every entry recorded for your team.',
    icon: <ShieldIcon />,
  },
];

export function FeatureGrid() {
  return (
    <section className="section" id="features" aria-labelledby="features-title">
      <div className="container">
        <div className="section-heading">
          <p className="eyebrow">Everything in one platform</p>
          <h2 id="features-title">Run the whole facility from one dashboard</h2>
          <p>From the first reservation to the last payment: no second system, no spreadsheets in between.</p>
        </div>
        <div className="feature-grid">
          {features.map(({ title, description, icon }) => (
            <article className="feature-card" key={title}>
              <span className="feature-icon">{icon}</span>
              <h3>{title}</h3>
              <p>{description}</p>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
