import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { LoadingState } from '../components/ui/spinner';
import { settingsQueryOptions } from '../lib/queries/settings-query';
import { useAuth } from '../lib/session/auth-store';
import { useAfterFirstScreen } from '../lib/ui/first-screen';
import { queryClient } from './query-client';

/** SPEC §2 guard: 'Loading...' while the session loads, then the screen or /login with the requested location. */
export function ProtectedRoute() {
  const loading = useAuth((s) => s.loading);
  const isAuthenticated = useAuth((s) => s.isAuthenticated);
  const location = useLocation();
  const painted = useAfterFirstScreen();
  // The account's settings, read once the first screen is up: the app takes on the language chosen there.
  useEffect(() => {
    if (painted && isAuthenticated) void queryClient.prefetchQuery(settingsQueryOptions());
  }, [painted, isAuthenticated]);
  if (loading) return <LoadingState fullPage />;
  if (!isAuthenticated) return <Navigate to="/login" replace state={{ from: location }} />;
  return <Outlet />;
}
