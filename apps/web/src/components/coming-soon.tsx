import { Hourglass } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from './ui/button';

/** Placeholder for screens that later issues build. */
export function ComingSoon() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center px-4 py-20 text-center">
      <title>Coming soon · Parley</title>
      <span className="mb-4 inline-flex size-14 items-center justify-center rounded-2xl bg-brand-50 text-brand-600">
        <Hourglass aria-hidden="true" className="size-7" />
      </span>
      <h1 className="text-2xl font-semibold text-slate-900">Coming soon</h1>
      <p className="mt-2 text-sm text-slate-500">This part of Parley is on its way.</p>
      <Link to="/" className={buttonClasses('secondary', 'md', 'mt-6')}>
        Back to home
      </Link>
    </div>
  );
}
