import { Suspense } from 'react';
import { useT } from '../../../lib/i18n/i18n';
import { lazyRetry } from '../../../lib/ui/retry-import';

// The QR code package is loaded only when someone sets up two-step sign-in, not with the app.
const QRCodeSVG = lazyRetry(() => import('qrcode.react').then((m) => ({ default: m.QRCodeSVG })));

/** The otpauth:// address as a QR code for an authenticator app to scan. */
export function TotpQr({ url }: { url: string }) {
  const t = useT();
  return (
    <div className="inline-block rounded-xl bg-white p-3 ring-1 ring-slate-200 dark:ring-slate-700">
      <Suspense fallback={<div className="size-44" aria-hidden="true" />}>
        <QRCodeSVG value={url} size={176} role="img" aria-label={t('account.twoStep.qr')} />
      </Suspense>
    </div>
  );
}
