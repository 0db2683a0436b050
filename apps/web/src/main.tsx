import './lib/http/zod-jitless';
import './index.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { appRouter, warmFirstRoute } from './app/router';
import { appStarted } from './lib/http/early-requests';
import { activateLocale, startLocale } from './lib/i18n/i18n';
import { authStore } from './lib/session/auth-store';

// The session is read before the first render, so protected screens rarely need their spinner.
authStore.getState().loadFromStorage();
// Past this point the app asks for a room's data itself; index.html's early requests start none now.
appStarted();

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');
// The reader's catalog (a small chunk of its own) is asked for at once, beside the first route's code.
const language = activateLocale(startLocale());
// On a phone, evaluating the app's modules is already a long task; what follows is split into tasks of its own
// so that none is as long as they were together: the first route's code asked for, then the router (matching
// the first route starts its requests), then React's first render, as a transition: React renders it in slices,
// yielding to the browser between them, rather than in one task.
setTimeout(() => {
  warmFirstRoute();
  setTimeout(async () => {
    appRouter();
    // A catalog that cannot load (offline before it was ever fetched) leaves the texts as their ids: still usable.
    await language.catch(() => undefined);
    const reactRoot = createRoot(root);
    startTransition(() =>
      reactRoot.render(
        <StrictMode>
          <App />
        </StrictMode>,
      ),
    );
  });
});
