import {
  createBrowserRouter,
  type LoaderFunctionArgs,
  matchRoutes,
  Navigate,
  type RouteObject,
  type ShouldRevalidateFunctionArgs,
} from 'react-router';
import { LoadingState } from '../components/ui/spinner';
import { enterRoom } from '../features/chat-room/api/room-queries';
import { HomePage } from '../features/home/components/home-page';
import { setUnauthorizedHandler } from '../lib/http/api-client';
import { authStore } from '../lib/session/auth-store';
import { NotFoundPage } from './not-found-page';
import { ProtectedRoute } from './protected-route';
import { queryClient } from './query-client';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';

// Every SPEC §2 route; screens past the home page load lazily, so the first download stays small.
const authScreen = async () => ({
  Component: (await import('../features/auth/components/auth-page')).AuthPage,
});

// A room's detail and newest page are asked for as soon as its route matches, while its code is still loading
// (the Lighthouse budget); the room itself then finds them in the query cache. Only a new room counts
// as an entry: a change of the search (?message=) within the same room asks for nothing again.
const roomLoader = ({ params }: LoaderFunctionArgs) => {
  enterRoom(queryClient, params.chatId ?? '');
  return null;
};
const roomShouldRevalidate = ({ currentParams, nextParams }: ShouldRevalidateFunctionArgs) =>
  currentParams.chatId !== nextParams.chatId;
/** A room's own path, and {room}/thread/{root id} with a thread open beside or over it (app/room-frame.tsx). */
const roomChildren: RouteObject[] = [{ index: true }, { path: 'thread/:rootId' }];

export const routes: RouteObject[] = [
  // The other brand's landing page (DESIGN §1) stands outside Parley's frame: its own header and the footer.
  {
    path: 'coming-soon',
    errorElement: <RouteError />,
    HydrateFallback: () => <LoadingState fullPage />,
    lazy: async () => ({
      Component: (await import('../features/landing/components/landing-page')).LandingPage,
    }),
  },
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    HydrateFallback: () => <LoadingState fullPage />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'chat-main', element: <Navigate to="/chats" replace /> },
      { path: 'auth', lazy: authScreen },
      { path: 'login', lazy: authScreen },
      { path: 'register', lazy: authScreen },
      {
        path: 'verify-email',
        lazy: async () => ({
          Component: (await import('../features/auth/components/verify-email-page')).VerifyEmailPage,
        }),
      },
      {
        path: 'reset-password',
        lazy: async () => ({
          Component: (await import('../features/auth/components/reset-password-page')).ResetPasswordPage,
        }),
      },
      {
        // A group invite link: signed out, it asks to sign up or log in first and is come back to afterwards.
        path: 'join/:code',
        lazy: async () => ({
          Component: (await import('../features/invites/components/join-page')).JoinPage,
        }),
      },
      {
        path: 'user/:username',
        lazy: async () => ({
          Component: (await import('../features/profile/components/public-profile-page')).PublicProfilePage,
        }),
      },
      {
        element: <ProtectedRoute />,
        children: [
          {
            // From 1024 px: the chat list on the left, the open chat or its settings on the right.
            lazy: async () => ({ Component: (await import('./chats-layout')).ChatsLayout }),
            children: [
              {
                path: 'chats',
                lazy: async () => ({
                  Component: (await import('../features/chats/components/chats-page')).ChatsPage,
                }),
              },
              {
                path: 'threads',
                lazy: async () => ({
                  Component: (await import('../features/threads/components/threads-page')).ThreadsPage,
                }),
              },
              {
                path: 'saved',
                lazy: async () => ({
                  Component: (await import('../features/saved/components/saved-page')).SavedPage,
                }),
              },
              {
                path: 'channels',
                lazy: async () => ({
                  Component: (await import('../features/channels/components/channels-page')).ChannelsPage,
                }),
              },
              {
                path: 'chats/:chatId',
                loader: roomLoader,
                shouldRevalidate: roomShouldRevalidate,
                lazy: async () => ({ Component: (await import('./room-frame')).PrivateRoomRoute }),
                children: roomChildren,
              },
              {
                path: 'chats/:chatId/settings',
                lazy: async () => ({ Component: (await import('./settings-frames')).ChatSettingsRoute }),
              },
              {
                path: 'groups/:chatId',
                loader: roomLoader,
                shouldRevalidate: roomShouldRevalidate,
                lazy: async () => ({ Component: (await import('./room-frame')).GroupRoomRoute }),
                children: roomChildren,
              },
              {
                path: 'groups/:chatId/settings',
                lazy: async () => ({ Component: (await import('./settings-frames')).GroupSettingsRoute }),
              },
            ],
          },
          {
            path: 'profile',
            lazy: async () => ({
              Component: (await import('../features/profile/components/profile-page')).ProfilePage,
            }),
          },
          {
            path: 'profile/edit',
            lazy: async () => ({
              Component: (await import('../features/profile/components/edit-profile-page')).EditProfilePage,
            }),
          },
          {
            path: 'settings',
            lazy: async () => ({
              Component: (await import('../features/settings/components/settings-page')).SettingsPage,
            }),
          },
        ],
      },
      {
        // Site admins only; anyone else, signed out included, gets the 404 page.
        path: 'admin',
        lazy: async () => {
          const { AdminPage } = await import('../features/admin/components/admin-page');
          return { Component: () => <AdminPage notFound={<NotFoundPage />} /> };
        },
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

let router: ReturnType<typeof createBrowserRouter> | null = null;

/**
 * Asks for the code of the routes the address matches, before the router exists (main.tsx, in a task of its
 * own): starting those downloads is a good part of the router's first task on a phone, which was then twice
 * as long. The router's own requests for the same modules find them already on their way.
 */
export function warmFirstRoute(): void {
  for (const { route } of matchRoutes(routes, window.location) ?? []) {
    if (typeof route.lazy === 'function') void Promise.resolve(route.lazy()).catch(() => {});
  }
}

/**
 * The app's router, made on first use (main.tsx, in a task after the modules' evaluation): making it matches the
 * first route and starts its loaders (a room's requests).
 */
export const appRouter = () => (router ??= createBrowserRouter(routes));

// A 401 from the authenticated client ends the session and asks for a new login, keeping where the user was.
setUnauthorizedHandler(() => {
  authStore.getState().clearSession();
  queryClient.clear();
  const from = appRouter().state.location;
  void appRouter().navigate('/login', { replace: true, state: { from } });
});
