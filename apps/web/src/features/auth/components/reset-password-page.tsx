import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { AuthShell } from './auth-shell';
import { ResetCodeStep } from './reset-code-step';
import { ResetEmailStep } from './reset-email-step';
import { ResetNewPasswordStep } from './reset-new-password-step';

type Step = 1 | 2 | 3;
const TITLES: Record<Step, { title: string; text: string }> = {
  1: { title: 'Reset your password', text: "Enter your account's email and we'll send you a 6-digit code." },
  2: { title: 'Enter the code', text: 'Check your inbox for the code we just sent.' },
  3: { title: 'Choose a new password', text: 'Use at least 6 characters.' },
};

/** /reset-password: email, then code, then new password; Back moves one step; success goes to /auth. */
export function ResetPasswordPage() {
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>(1);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');

  const back = () => {
    if (step === 1) void navigate('/auth');
    else setStep((s) => (s - 1) as Step);
  };

  return (
    <AuthShell title="Reset Password" onBack={back}>
      <div className="flex flex-col items-center text-center">
        <span className="mb-4 inline-flex size-12 items-center justify-center rounded-2xl bg-brand-50 dark:bg-brand-500/15 text-brand-600 dark:text-brand-300">
          <KeyRound aria-hidden="true" className="size-6" />
        </span>
        <p className="text-xs font-semibold tracking-wide text-brand-600 dark:text-brand-300 uppercase">
          Step {step} of 3
        </p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100">
          {TITLES[step].title}
        </h1>
        <p className="mt-2 text-sm text-balance text-slate-600 dark:text-slate-400">{TITLES[step].text}</p>
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
