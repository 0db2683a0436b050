import { Navigate, Outlet, useLocation } from 'react-router';
import { LoadingState } from '../components/ui/spinner';
import { useAuth } from '../lib/session/auth-store';

/** SPEC §2 guard: 'Loading...' while the session loads, then the screen or /login with the requested location. */
export function ProtectedRoute() {
  const loading = useAuth((s) => s.loading);
  const isAuthenticated = useAuth((s) => s.isAuthenticated);
  const location = useLocation();
  if (loading) return <LoadingState fullPage />;
  if (!isAuthenticated) return <Navigate to="/login" replace state={{ from: location }} />;
  return <Outlet />;
}
