import type { TotpSetup } from '@parley/protocol';
import { type FormEvent, useState } from 'react';
import { CodeInput } from '../../../components/code-input';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { LoadingState } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { fieldErrors, serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { toast } from '../../../lib/ui/toast';
import { useDisableTwoStep } from '../api/disable-two-step';
import { useEnableTwoStep } from '../api/enable-two-step';
import { useSetupTwoStep } from '../api/setup-two-step';
import { useTwoStepStatus } from '../api/two-step-status';
import '../lib/account-texts';
import { type OwnerProof, OwnerProofFields } from './owner-proof-fields';
import { RecoveryCodes } from './recovery-codes';
import { TotpQr } from './totp-qr';

/** The secret in groups of four, as authenticator apps show and accept it. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

function SetUp({
  setup,
  onCancel,
  onEnabled,
}: {
  setup: TotpSetup;
  onCancel: () => void;
  onEnabled: (codes: string[]) => void;
}) {
  const t = useT();
  const enable = useEnableTwoStep();
  const [code, setCode] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    enable.mutate(code, { onSuccess: (r) => onEnabled(r.recovery_codes) });
  };
  return (
    <form onSubmit={onSubmit} aria-label={t('account.twoStep.setUp')} className="space-y-4">
      <p className="text-sm text-slate-700 dark:text-slate-300">{t('account.twoStep.scan')}</p>
      <TotpQr url={setup.otpauth_url} />
      <TextField
        label={t('account.twoStep.setupKey')}
        readOnly
        translate="no"
        dir="ltr"
        value={grouped(setup.secret)}
        spellCheck={false}
        inputClassName="font-mono"
        onFocus={(e) => e.target.select()}
      />
      {enable.isError && (
        <ErrorBanner>{serverErrorOr(enable.error, t('account.twoStep.enableFailed'))}</ErrorBanner>
      )}
      <CodeInput label={t('account.twoStep.codeFromApp')} value={code} onChange={setCode} />
      <div className="flex gap-2">
        <Button type="submit" disabled={code.length !== 6} loading={enable.isPending}>
          {t('account.twoStep.turnOn')}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          {t('account.cancel')}
        </Button>
      </div>
    </form>
  );
}

function TurnOff() {
  const t = useT();
  const disable = useDisableTwoStep();
  const [proof, setProof] = useState<OwnerProof>({ password: '', code: '' });
  const errors = disable.isError ? fieldErrors((disable.error as { body?: unknown }).body) : {};
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    disable.mutate(proof, { onSuccess: () => toast.success(t('account.twoStep.isOff')) });
  };
  const general = disable.isError && !errors.password && !errors.code;
  return (
    <form onSubmit={onSubmit} aria-label={t('account.twoStep.turnOff')} className="mt-4 space-y-3">
      {general && (
        <ErrorBanner>{serverErrorOr(disable.error, t('account.twoStep.disableFailed'))}</ErrorBanner>
      )}
      <OwnerProofFields value={proof} onChange={setProof} withCode errors={errors} />
      <Button
        type="submit"
        variant="danger"
        disabled={!proof.password || !proof.code}
        loading={disable.isPending}
      >
        {t('account.twoStep.turnOff')}
      </Button>
    </form>
  );
}

/** Settings: two-step sign-in — set up with a QR code (or the key as text), confirm with a code, turn off. */
export function TwoStepSection() {
  const t = useT();
  const status = useTwoStepStatus();
  const start = useSetupTwoStep();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  const body = () => {
    if (codes) return <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
    if (status.isPending) return <LoadingState label={t('account.twoStep.loading')} />;
    if (status.isError) return <ErrorBanner>{t('account.twoStep.loadFailed')}</ErrorBanner>;
    if (status.data.enabled)
      return (
        <>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            <span className="font-medium text-green-700 dark:text-green-400">{t('account.twoStep.on')}</span>{' '}
            {t('account.twoStep.onDetail', { count: status.data.recovery_codes_left })}
          </p>
          <TurnOff />
        </>
      );
    if (setup)
      return (
        <SetUp
          setup={setup}
          onCancel={() => setSetup(null)}
          onEnabled={(recovery) => {
            setSetup(null);
            setCodes(recovery);
          }}
        />
      );
    return (
      <div className="space-y-3">
        <p className="text-sm text-slate-700 dark:text-slate-300">{t('account.twoStep.offDetail')}</p>
        {start.isError && (
          <ErrorBanner>{serverErrorOr(start.error, t('account.twoStep.startFailed'))}</ErrorBanner>
        )}
        <Button loading={start.isPending} onClick={() => start.mutate(undefined, { onSuccess: setSetup })}>
          {t('account.twoStep.setUp')}
        </Button>
      </div>
    );
  };

  return (
    <Card>
      <CardHeader title={t('account.twoStep.title')} description={t('account.twoStep.description')} />
      {body()}
    </Card>
  );
}
