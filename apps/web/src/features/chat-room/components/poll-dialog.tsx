import {
  POLL_MAX_OPTIONS,
  POLL_MIN_OPTIONS,
  POLL_OPTION_MAX_LENGTH,
  POLL_QUESTION_MAX_LENGTH,
  type PollInput,
} from '@parley/protocol';
import { Plus, X } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ModalDialog } from '../../../components/ui/modal-dialog';
import { Switch } from '../../../components/ui/switch';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import {
  canAddOption,
  canRemoveOption,
  checkPoll,
  emptyPollDraft,
  type PollDraft,
  type PollErrors,
} from '../lib/poll-form';
import '../lib/room-server-texts';

/**
 * 'Create poll': a question, 2 to 10 answers (added and removed here), whether several may be chosen and
 * whether voting is anonymous. What is wrong is said under each field once the poll is asked for. Loaded the
 * first time the composer's poll button is pressed (composer-buttons.tsx).
 */
export default function PollDialog({
  onCreate,
  onClose,
}: {
  /** False when the poll could not be sent: the dialog stays open with what was typed. */
  onCreate: (poll: PollInput) => boolean;
  onClose: () => void;
}) {
  const t = useT();
  const titleId = useId();
  const listErrorId = useId();
  const [draft, setDraft] = useState<PollDraft>(emptyPollDraft);
  const [errors, setErrors] = useState<PollErrors | null>(null);
  const optionsRef = useRef<HTMLDivElement>(null);

  const change = (patch: Partial<PollDraft>) => {
    const next = { ...draft, ...patch };
    setDraft(next);
    // Once shown, the errors follow what is typed.
    if (errors) {
      const checked = checkPoll(next);
      setErrors('errors' in checked ? checked.errors : null);
    }
  };
  const setOption = (index: number, text: string) =>
    change({ options: draft.options.map((o, i) => (i === index ? text : o)) });
  const focusOption = (index: number) =>
    requestAnimationFrame(() =>
      optionsRef.current?.querySelectorAll<HTMLInputElement>('input')[index]?.focus(),
    );
  const addOption = () => {
    if (!canAddOption(draft)) return;
    change({ options: [...draft.options, ''] });
    focusOption(draft.options.length);
  };
  const removeOption = (index: number) => {
    change({ options: draft.options.filter((_, i) => i !== index) });
    focusOption(Math.max(0, index - 1));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkPoll(draft);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    if (onCreate(checked.poll)) onClose();
  };

  return (
    <ModalDialog labelledBy={titleId} onClose={onClose} className="w-[calc(100%-2rem)] max-w-md">
      <form noValidate onSubmit={submit} className="p-6" data-testid="poll-dialog">
        <h2 id={titleId} className="text-lg font-semibold">
          {t('room.composer.poll')}
        </h2>
        <TextField
          className="mt-4"
          label={t('room.poll.question')}
          value={draft.question}
          maxLength={POLL_QUESTION_MAX_LENGTH}
          error={errors?.question && localText(errors.question)}
          onChange={(e) => change({ question: e.target.value })}
          autoFocus
        />
        <fieldset className="mt-4" aria-describedby={errors?.list ? listErrorId : undefined}>
          <legend className="text-sm font-medium text-slate-700 dark:text-slate-300">
            {t('room.poll.options')}{' '}
            <span className="font-normal text-slate-600 dark:text-slate-400">
              {t('room.poll.optionsRange', { min: POLL_MIN_OPTIONS, max: POLL_MAX_OPTIONS })}
            </span>
          </legend>
          <div ref={optionsRef} className="mt-1.5 max-h-[40vh] space-y-2 overflow-y-auto p-0.5">
            {draft.options.map((option, index) => (
              <div key={index} className="flex items-start gap-1">
                <TextField
                  className="min-w-0 flex-1 space-y-1"
                  label={t('room.poll.option', { n: index + 1 })}
                  value={option}
                  maxLength={POLL_OPTION_MAX_LENGTH}
                  error={errors?.options[index] && localText(errors.options[index])}
                  onChange={(e) => setOption(index, e.target.value)}
                />
                {canRemoveOption(draft) && (
                  <button
                    type="button"
                    aria-label={t('room.poll.removeN', { n: index + 1 })}
                    title={t('room.poll.remove')}
                    onClick={() => removeOption(index)}
                    className="mt-6 inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-slate-100"
                  >
                    <X aria-hidden="true" className="size-4" />
                  </button>
                )}
              </div>
            ))}
          </div>
          {errors?.list && (
            <p
              id={listErrorId}
              role="alert"
              className="mt-2 text-xs font-medium text-red-600 dark:text-red-400"
            >
              {localText(errors.list)}
            </p>
          )}
          {canAddOption(draft) && (
            <Button type="button" variant="ghost" size="sm" className="mt-2" onClick={addOption}>
              <Plus aria-hidden="true" className="size-4" />
              {t('room.poll.add')}
            </Button>
          )}
        </fieldset>
        <div className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
          <Switch
            label={t('room.poll.multiple')}
            checked={draft.multiple}
            onChange={(multiple) => change({ multiple })}
          />
          <Switch
            label={t('room.poll.anonymousLabel')}
            description={t('room.poll.anonymousHint')}
            checked={draft.anonymous}
            onChange={(anonymous) => change({ anonymous })}
          />
        </div>
        <div className="mt-6 flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            {t('room.msg.cancel')}
          </Button>
          <Button type="submit">{t('room.composer.poll')}</Button>
        </div>
      </form>
    </ModalDialog>
  );
}
