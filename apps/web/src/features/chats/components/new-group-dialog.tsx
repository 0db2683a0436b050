import {
  DESCRIPTION_MAX_LENGTH,
  GROUP_NAME_MAX_LENGTH,
  groupCreateSchema,
  MSG,
  type Posting,
  type Visibility,
} from '@parley/protocol';
import { Globe, Lock, type LucideIcon, Megaphone, MessagesSquare } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { type RadioCardOption, RadioCards } from '../../../components/ui/radio-cards';
import { TextAreaField } from '../../../components/ui/text-area-field';
import { TextField } from '../../../components/ui/text-field';
import { fieldErrors, isApiError } from '../../../lib/http/api-error';
import { type MessageId, t as translate, useT } from '../../../lib/i18n/i18n';
import { knowServerTexts, localText } from '../../../lib/i18n/server-texts';
import { toast } from '../../../lib/ui/toast';
import { createGroupErrorText, useCreateGroup } from '../api/create-group';

// SPEC's toast when the server says nothing: its English kept word for word, shown in the reader's language.
const CREATE_FAILED = 'Error happend';
knowServerTexts([[CREATE_FAILED, 'groups.new.failed' satisfies MessageId]]);

/** A choice of the dialog, with its icon before the label, in the reader's language. */
const option = <T extends string>(
  value: T,
  label: MessageId,
  Icon: LucideIcon,
  description: MessageId,
): RadioCardOption<T> => ({
  value,
  label: translate(label),
  description: translate(description),
  icon: <Icon aria-hidden="true" className="size-4 shrink-0 text-slate-500 dark:text-slate-400" />,
});

const visibilityOptions = () => [
  option<Visibility>('private', 'groups.new.private', Lock, 'groups.new.privateHint'),
  option<Visibility>('public', 'groups.kind.public', Globe, 'groups.new.publicHint'),
];

const postingOptions = () => [
  option<Posting>('everyone', 'groups.new.everyone', MessagesSquare, 'groups.new.everyoneHint'),
  option<Posting>('admins', 'groups.new.onlyAdmins', Megaphone, 'groups.new.onlyAdminsHint'),
];

/**
 * 'New Group': asks for a name, whether the group is private or a public channel, a description and who may
 * post; creates the group and opens /groups/{chat_id}; a failure is a toast.
 */
export function NewGroupDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [visibility, setVisibility] = useState<Visibility>('private');
  const [description, setDescription] = useState('');
  const [descriptionError, setDescriptionError] = useState<string | null>(null);
  const [posting, setPosting] = useState<Posting>('everyone');
  const createGroup = useCreateGroup();
  const t = useT();
  const navigate = useNavigate();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setName('');
      setError(null);
      setVisibility('private');
      setDescription('');
      setDescriptionError(null);
      setPosting('everyone');
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = groupCreateSchema.safeParse({ group_name: name, visibility, description, posting });
    if (!parsed.success) {
      const issues = parsed.error.issues;
      const on = (field: string) => {
        const message = issues.find((issue) => issue.path[0] === field)?.message;
        return message ? localText(message) : null;
      };
      setError(on('group_name'));
      setDescriptionError(on('description'));
      return;
    }
    createGroup.mutate(parsed.data, {
      onSuccess: ({ chat_id }) => {
        onClose();
        void navigate(`/groups/${encodeURIComponent(chat_id)}`);
      },
      onError: (e) => {
        // The server's word on the name goes under the field; anything else is SPEC's toast.
        const fields = isApiError(e) ? fieldErrors(e.body) : {};
        if (fields.group_name) setError(localText(fields.group_name));
        if (fields.description) setDescriptionError(localText(fields.description));
        if (!fields.group_name && !fields.description) toast.error(localText(createGroupErrorText(e)));
      },
    });
  };

  const busy = createGroup.isPending;
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg overflow-y-auto rounded-2xl bg-white dark:bg-slate-900 p-0 text-slate-900 dark:text-slate-100 shadow-xl"
    >
      {/* Drawn only while open: the chat list keeps the dialog, and its closed fields would share labels with a
          settings screen beside it. */}
      {open && (
        <form onSubmit={submit} className="p-5 sm:p-6" noValidate>
          <h2 id={titleId} className="text-lg font-semibold">
            {t('chats.newGroup')}
          </h2>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t('groups.new.intro')}</p>
          <TextField
            label={t('groups.name')}
            className="mt-4"
            value={name}
            autoFocus
            maxLength={GROUP_NAME_MAX_LENGTH}
            placeholder={t('groups.new.namePlaceholder')}
            error={error}
            hint={t('groups.new.nameHint', { max: GROUP_NAME_MAX_LENGTH, count: name.length })}
            disabled={busy}
            onChange={(event) => {
              setName(event.target.value);
              if (error) setError(null);
            }}
            // The box stops at the limit; a longer paste is cut there, and the dialog says so.
            onPaste={(event) => {
              const box = event.currentTarget;
              const kept = box.value.length - ((box.selectionEnd ?? 0) - (box.selectionStart ?? 0));
              if (kept + event.clipboardData.getData('text').length > GROUP_NAME_MAX_LENGTH) {
                setTimeout(() => setError(localText(MSG.groupNameTooLong)));
              }
            }}
          />
          <RadioCards
            legend={t('groups.new.whoFinds')}
            name="visibility"
            className="mt-4"
            value={visibility}
            options={visibilityOptions()}
            onChange={setVisibility}
            disabled={busy}
          />
          <TextAreaField
            label={t('groups.new.descriptionLabel')}
            className="mt-4"
            rows={3}
            value={description}
            maxLength={DESCRIPTION_MAX_LENGTH}
            placeholder={t('groups.descriptionPlaceholder')}
            error={descriptionError}
            disabled={busy}
            onChange={(event) => {
              setDescription(event.target.value);
              if (descriptionError) setDescriptionError(null);
            }}
          />
          <RadioCards
            legend={t('groups.new.whoPosts')}
            name="posting"
            className="mt-4"
            value={posting}
            options={postingOptions()}
            onChange={setPosting}
            disabled={busy}
          />
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onClose} disabled={busy}>
              {t('room.msg.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('groups.new.create')}
            </Button>
          </div>
        </form>
      )}
    </dialog>
  );
}
