// Runs before the first paint (a blocking script in <head>), so a dark page never flashes light: the stored
// choice ('light' | 'dark', none for the system's) or the system setting decides the `dark` class on <html>.
// src/lib/theme.ts keeps it in step afterwards. A file, not an inline script: the CSP allows only 'self'.
(() => {
  let choice = null;
  try {
    choice = window.localStorage.getItem('theme');
  } catch {}
  const dark =
    choice === 'dark' ||
    (choice !== 'light' && window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
  if (dark) document.querySelector('meta[name="theme-color"]')?.setAttribute('content', '#0f172a');
})();
