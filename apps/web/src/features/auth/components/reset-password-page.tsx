import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { type MessageId, useT } from '../../../lib/i18n/i18n';
import { AuthShell } from './auth-shell';
import { ResetCodeStep } from './reset-code-step';
import { ResetEmailStep } from './reset-email-step';
import { ResetNewPasswordStep } from './reset-new-password-step';

type Step = 1 | 2 | 3;
const STEPS = 3;
const TITLES: Record<Step, { title: MessageId; text: MessageId }> = {
  1: { title: 'auth.reset.emailTitle', text: 'auth.reset.emailText' },
  2: { title: 'auth.reset.codeTitle', text: 'auth.reset.codeText' },
  3: { title: 'auth.reset.passwordTitle', text: 'auth.reset.passwordText' },
};

/** /reset-password: email, then code, then new password; Back moves one step; success goes to /auth. */
export function ResetPasswordPage() {
  const t = useT();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>(1);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');

  const back = () => {
    if (step === 1) void navigate('/auth');
    else setStep((s) => (s - 1) as Step);
  };

  return (
    <AuthShell title={t('auth.reset.pageTitle')} onBack={back}>
      <div className="flex flex-col items-center text-center">
        <span className="mb-4 inline-flex size-12 items-center justify-center rounded-2xl bg-brand-50 dark:bg-brand-500/15 text-brand-600 dark:text-brand-300">
          <KeyRound aria-hidden="true" className="size-6" />
        </span>
        <p className="text-xs font-semibold tracking-wide text-brand-600 dark:text-brand-300 uppercase">
          {t('auth.reset.step', { step, steps: STEPS })}
        </p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100">
          {t(TITLES[step].title)}
        </h1>
        <p className="mt-2 text-sm text-balance text-slate-600 dark:text-slate-400">{t(TITLES[step].text)}</p>
      </div>
      <div className="mt-6">
        {step === 1 && (
          <ResetEmailStep
            email={email}
            onEmailChange={setEmail}
            onSent={() => {
              setCode('');
              setStep(2);
            }}
          />
        )}
        {step === 2 && (
          <ResetCodeStep
            email={email}
            code={code}
            onCodeChange={setCode}
            onVerified={() => setStep(3)}
            onBack={back}
          />
        )}
        {step === 3 && <ResetNewPasswordStep email={email} code={code} onBack={back} />}
      </div>
    </AuthShell>
  );
}
