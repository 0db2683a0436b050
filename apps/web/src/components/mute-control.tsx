import { isMutedNow, MUTE_CHOICES, type MuteState } from '@parley/protocol';
import { Bell, BellOff } from 'lucide-react';
import { useId, useState } from 'react';
import { serverErrorOr } from '../lib/http/api-error';
import { type MessageId, useT } from '../lib/i18n/i18n';
import { SLOT, Slotted } from '../lib/i18n/slotted';
import { useSetMute } from '../lib/queries/safety';
import { fullDateTime } from '../lib/text/locale-format';
import { toast } from '../lib/ui/toast';
import './safety-texts';
import { Button } from './ui/button';
import { Card, CardHeader } from './ui/card';

/** MUTE_CHOICES' words, in their order. */
const CHOICE_TEXTS: readonly MessageId[] = [
  'groups.mute.1h',
  'groups.mute.8h',
  'groups.mute.1w',
  'groups.mute.always',
];

/**
 * A chat's mute, for the private and group settings: muted for 1 hour, 8 hours, 1 week or always.
 * A muted chat raises no notification, push or mail, except when the person is mentioned.
 */
export function MuteControl({ chatId, state }: { chatId: string; state: Partial<MuteState> }) {
  const selectId = useId();
  const [choice, setChoice] = useState(0);
  const change = useSetMute();
  const muted = isMutedNow(state);
  const t = useT();

  const apply = (until: string | null | false) =>
    change.mutate(
      { chatId, until },
      {
        onSuccess: (s) => toast.success(t(s.muted ? 'groups.mute.muted' : 'groups.mute.unmuted')),
        onError: (e) => toast.error(serverErrorOr(e, t('groups.mute.failed'))),
      },
    );
  const mute = () => {
    const ms = MUTE_CHOICES[choice]?.ms ?? null;
    apply(ms === null ? null : new Date(Date.now() + ms).toISOString());
  };

  return (
    <Card>
      <CardHeader
        title={t('settings.notifications.title')}
        description={
          muted ? (
            state.muted_until ? (
              <Slotted text={t('groups.mute.mutedUntil', { time: SLOT })}>
                <time dateTime={state.muted_until}>{fullDateTime(state.muted_until)}</time>
              </Slotted>
            ) : (
              t('groups.mute.mutedAlways')
            )
          ) : (
            t('groups.mute.hint')
          )
        }
      />
      <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-end">
        {muted ? (
          <Button variant="secondary" onClick={() => apply(false)} loading={change.isPending}>
            <Bell aria-hidden="true" className="size-4" />
            {t('groups.mute.unmute')}
          </Button>
        ) : (
          <>
            <div className="space-y-1.5">
              <label
                htmlFor={selectId}
                className="block text-sm font-medium text-slate-700 dark:text-slate-300"
              >
                {t('groups.mute.for')}
              </label>
              <select
                id={selectId}
                value={choice}
                onChange={(e) => setChoice(Number(e.target.value))}
                className="block h-10 w-full rounded-lg border border-slate-300 dark:border-slate-700 bg-white dark:bg-slate-900 px-3 text-sm text-slate-900 dark:text-slate-100 shadow-sm sm:w-40"
              >
                {MUTE_CHOICES.map((c, i) => (
                  <option key={c.label} value={i}>
                    {t(CHOICE_TEXTS[i] ?? 'groups.mute.always')}
                  </option>
                ))}
              </select>
            </div>
            <Button variant="secondary" onClick={mute} loading={change.isPending}>
              <BellOff aria-hidden="true" className="size-4" />
              {t('groups.mute.mute')}
            </Button>
          </>
        )}
      </div>
    </Card>
  );
}
