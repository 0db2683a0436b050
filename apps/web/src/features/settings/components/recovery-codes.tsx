import { InfoNote } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../lib/ui/toast';

/** The ten recovery codes, shown once right after two-step sign-in is turned on. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const copy = () =>
    navigator.clipboard
      .writeText(codes.join('\n'))
      .then(() => toast.success('Recovery codes copied'))
      .catch(() => toast.error('Could not copy; write the codes down instead'));
  return (
    <div className="space-y-3">
      <InfoNote>
        Save these recovery codes somewhere safe. Each signs you in once if you lose your phone. They will not
        be shown again.
      </InfoNote>
      <ul
        aria-label="Recovery codes"
        className="grid grid-cols-2 gap-2 rounded-lg bg-slate-50 p-3 font-mono text-sm text-slate-900 dark:bg-slate-950 dark:text-slate-100"
      >
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="flex gap-2">
        <Button variant="secondary" onClick={copy}>
          Copy codes
        </Button>
        <Button onClick={onDone}>I have saved these codes</Button>
      </div>
    </div>
  );
}
