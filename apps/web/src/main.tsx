import './index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { authStore } from './lib/auth-store';

// The session is read before the first render, so protected screens rarely need their spinner.
authStore.getState().loadFromStorage();

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
