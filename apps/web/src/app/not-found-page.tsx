import { Compass } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '../components/ui/button';

export function NotFoundPage() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center px-4 py-20 text-center">
      <title>Page not found · Parley</title>
      <span className="mb-4 inline-flex size-14 items-center justify-center rounded-2xl bg-slate-100 text-slate-500">
        <Compass aria-hidden="true" className="size-7" />
      </span>
      <p className="text-sm font-semibold text-brand-600">404</p>
      <h1 className="mt-1 text-2xl font-semibold text-slate-900">Page not found</h1>
      <p className="mt-2 text-sm text-slate-500">The page you are looking for does not exist or has moved.</p>
      <Link to="/" className={buttonClasses('primary', 'md', 'mt-6')}>
        Go to home
      </Link>
    </div>
  );
}
