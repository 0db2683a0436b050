import './index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { appRouter } from './app/router';
import { authStore } from './lib/auth-store';

// The session is read before the first render, so protected screens rarely need their spinner.
authStore.getState().loadFromStorage();

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');
// The router (matching the first route starts its requests) in a task of its own, and React's first render in
// the next: on a phone, evaluating the app's modules is already a long task; the three together were one twice
// as long.
setTimeout(() => {
  appRouter();
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
