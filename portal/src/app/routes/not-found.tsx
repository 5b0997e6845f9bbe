import { Link } from 'wouter';

export default function NotFoundPage() {
  return (
    <main className="container notice-page notice-page-full">
      <h1>404 Page Not Found</h1>
      <p>Did you forget to add the page to the router?</p>
      <Link href="/" className="button button-primary">
        Back to home
      </Link>
    </main>
  );
}
