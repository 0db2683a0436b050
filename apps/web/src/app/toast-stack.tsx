import { TOAST_AUTO_CLOSE_MS } from '@parley/protocol';
import { type CloseButtonProps, ToastContainer } from 'react-toastify';
import { useT } from '../lib/i18n/i18n';
import { isDarkUnder, useThemeChoice } from '../lib/ui/theme';
import { useMediaQuery } from '../lib/ui/use-media-query';

// The toast stack and its library, in a chunk of their own that the app asks for once its first screen has
// painted (app/provider.tsx): nothing of the library is in the first screen's JavaScript.

/** The library's close button (its classes and icon) with a name in the reader's language. */
function ToastClose({ closeToast, theme }: CloseButtonProps) {
  const t = useT();
  return (
    <button
      className={`Toastify__close-button Toastify__close-button--${theme}`}
      type="button"
      aria-label={t('general.toasts.close')}
      onClick={(e) => {
        e.stopPropagation();
        closeToast(true);
      }}
    >
      <svg aria-hidden="true" viewBox="0 0 14 16">
        <path
          fillRule="evenodd"
          d="M7.71 8.23l3.75 3.75-1.48 1.48-3.75-3.75-3.75 3.75L1 11.98l3.75-3.75L1 4.48 2.48 3l3.75 3.75L9.98 3l1.48 1.48-3.75 3.75z"
        />
      </svg>
    </button>
  );
}

/** The toast stack, named in the reader's language. */
export function ToastStack() {
  const t = useT();
  const choice = useThemeChoice();
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)');
  const dark = isDarkUnder(choice, systemDark);
  // On a phone the stack goes to the bottom and shows two at most, so it never covers a form's card.
  const phone = useMediaQuery('(max-width: 480px)');
  return (
    <ToastContainer
      position={phone ? 'bottom-center' : 'top-right'}
      autoClose={TOAST_AUTO_CLOSE_MS}
      newestOnTop
      limit={phone ? 2 : 4}
      theme={dark ? 'dark' : 'light'}
      aria-label={t('general.toasts.region')}
      closeButton={ToastClose}
    />
  );
}
