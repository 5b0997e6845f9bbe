import { Link } from 'wouter';
import { CardIcon, CheckIcon, ClockIcon, LockIcon, PhoneIcon, ThermometerIcon } from '../../../components/icons.tsx';

const renterPromises = ['24/7 access', 'Climate-controlled units', 'Smart locks with mobile app control', 'Autopay and mobile payments'];

export function Hero() {
  return (
    <section className="hero">
      <div className="container hero-grid">
        <div className="hero-copy">
          <p className="badge">Trusted by 200+ Customers</p>
          <h1>Smarter self storage, for renters and operators.</h1>
          <p className="hero-lead">
            Rent a climate-controlled unit online and open it from your phone, any hour of the day. Operators run customers, units, smart locks and billing from
            one platform, at 50% less cost than the pair of legacy systems it replaces.
          </p>
          <div className="button-row">
            <Link href="/rent-now" className="button button-primary button-large">
              Rent a Unit Now
            </Link>
            <Link href="/available-units" className="button button-secondary button-large">
              View Available Units
            </Link>
          </div>
          <ul className="check-list">
            {renterPromises.map((promise) => (
              <li key={promise}>
                <CheckIcon />
                {promise}
              </li>
            ))}
          </ul>
        </div>

        <div className="hero-visual" aria-hidden="true">
          <div className="phone">
            <div className="phone-screen">
              <p className="phone-title">My storage unit</p>
              <div className="phone-lock">
                <span className="phone-lock-icon">
                  <LockIcon />
                </span>
                <span className="phone-lock-label">Tap to unlock</span>
              </div>
              <ul className="phone-status">
                <li>
                  <ClockIcon /> Access 24/7
                </li>
                <li>
                  <ThermometerIcon /> Climate controlled
                </li>
                <li>
                  <CardIcon /> Autopay on
                </li>
              </ul>
            </div>
          </div>
          <div className="floating-card floating-card-top">
            <PhoneIcon />
            <span>Smart lock, mobile app control</span>
          </div>
          <div className="floating-card floating-card-bottom">
            <CardIcon />
            <span>Online card payments</span>
          </div>
        </div>
      </div>
    </section>
  );
}
