import type { TotpSetup } from '@parley/protocol';
import { type FormEvent, useState } from 'react';
import { CodeInput } from '../../../components/code-input';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { LoadingState } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { fieldErrors, serverErrorOr } from '../../../lib/http/api-error';
import { toast } from '../../../lib/ui/toast';
import { useDisableTwoStep } from '../api/disable-two-step';
import { useEnableTwoStep } from '../api/enable-two-step';
import { useSetupTwoStep } from '../api/setup-two-step';
import { useTwoStepStatus } from '../api/two-step-status';
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
  const enable = useEnableTwoStep();
  const [code, setCode] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    enable.mutate(code, { onSuccess: (r) => onEnabled(r.recovery_codes) });
  };
  return (
    <form onSubmit={onSubmit} aria-label="Set up two-step sign-in" className="space-y-4">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Scan this QR code with an authenticator app (such as Google Authenticator, 1Password or Aegis), or
        enter the setup key by hand. Then type the 6-digit code the app shows.
      </p>
      <TotpQr url={setup.otpauth_url} />
      <TextField
        label="Setup key"
        readOnly
        value={grouped(setup.secret)}
        spellCheck={false}
        inputClassName="font-mono"
        onFocus={(e) => e.target.select()}
      />
      {enable.isError && (
        <ErrorBanner>{serverErrorOr(enable.error, 'Failed to turn on two-step sign-in')}</ErrorBanner>
      )}
      <CodeInput label="Code from your app" value={code} onChange={setCode} />
      <div className="flex gap-2">
        <Button type="submit" disabled={code.length !== 6} loading={enable.isPending}>
          Turn on
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function TurnOff() {
  const disable = useDisableTwoStep();
  const [proof, setProof] = useState<OwnerProof>({ password: '', code: '' });
  const errors = disable.isError ? fieldErrors((disable.error as { body?: unknown }).body) : {};
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    disable.mutate(proof, { onSuccess: () => toast.success('Two-step sign-in is off') });
  };
  const general = disable.isError && !errors.password && !errors.code;
  return (
    <form onSubmit={onSubmit} aria-label="Turn off two-step sign-in" className="mt-4 space-y-3">
      {general && (
        <ErrorBanner>{serverErrorOr(disable.error, 'Failed to turn off two-step sign-in')}</ErrorBanner>
      )}
      <OwnerProofFields value={proof} onChange={setProof} withCode errors={errors} />
      <Button
        type="submit"
        variant="danger"
        disabled={!proof.password || !proof.code}
        loading={disable.isPending}
      >
        Turn off two-step sign-in
      </Button>
    </form>
  );
}

/** Settings: two-step sign-in — set up with a QR code (or the key as text), confirm with a code, turn off. */
export function TwoStepSection() {
  const status = useTwoStepStatus();
  const start = useSetupTwoStep();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  const body = () => {
    if (codes) return <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
    if (status.isPending) return <LoadingState label="Loading two-step sign-in..." />;
    if (status.isError) return <ErrorBanner>Failed to load two-step sign-in</ErrorBanner>;
    if (status.data.enabled)
      return (
        <>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            <span className="font-medium text-green-700 dark:text-green-400">On.</span> Signing in asks for a
            code from your app. {status.data.recovery_codes_left} recovery codes left.
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
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Off. Turn it on to be asked for a code from an authenticator app each time you sign in.
        </p>
        {start.isError && (
          <ErrorBanner>{serverErrorOr(start.error, 'Failed to start the set-up')}</ErrorBanner>
        )}
        <Button loading={start.isPending} onClick={() => start.mutate(undefined, { onSuccess: setSetup })}>
          Set up two-step sign-in
        </Button>
      </div>
    );
  };

  return (
    <Card>
      <CardHeader title="Two-step sign-in" description="A code from your phone as well as your password." />
      {body()}
    </Card>
  );
}
