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
import { toast } from '../../../lib/ui/toast';
import { createGroupErrorText, useCreateGroup } from '../api/create-group';

/** A choice of the dialog, with its icon before the label. */
const option = <T extends string>(
  value: T,
  label: string,
  Icon: LucideIcon,
  description: string,
): RadioCardOption<T> => ({
  value,
  label,
  description,
  icon: <Icon aria-hidden="true" className="size-4 shrink-0 text-slate-500 dark:text-slate-400" />,
});

const VISIBILITY_OPTIONS = [
  option<Visibility>('private', 'Private', Lock, 'Only the people added to it can find and read it.'),
  option<Visibility>(
    'public',
    'Public channel',
    Globe,
    'Listed in Browse channels: anyone can read it and join.',
  ),
];

const POSTING_OPTIONS = [
  option<Posting>('everyone', 'Everyone', MessagesSquare, 'Every member can post.'),
  option<Posting>('admins', 'Only admins', Megaphone, 'Announcements: members read and react.'),
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
      const on = (field: string) => issues.find((issue) => issue.path[0] === field)?.message ?? null;
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
        if (fields.group_name) setError(fields.group_name);
        if (fields.description) setDescriptionError(fields.description);
        if (!fields.group_name && !fields.description) toast.error(createGroupErrorText(e));
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
            New Group
          </h2>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">
            Give your group a name. You can add people from its settings.
          </p>
          <TextField
            label="Group name"
            className="mt-4"
            value={name}
            autoFocus
            maxLength={GROUP_NAME_MAX_LENGTH}
            placeholder="e.g. Weekend hikers"
            error={error}
            hint={`Up to ${GROUP_NAME_MAX_LENGTH} characters (${name.length}/${GROUP_NAME_MAX_LENGTH})`}
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
                setTimeout(() => setError(MSG.groupNameTooLong));
              }
            }}
          />
          <RadioCards
            legend="Who can find it"
            name="visibility"
            className="mt-4"
            value={visibility}
            options={VISIBILITY_OPTIONS}
            onChange={setVisibility}
            disabled={busy}
          />
          <TextAreaField
            label="Description (optional)"
            className="mt-4"
            rows={3}
            value={description}
            maxLength={DESCRIPTION_MAX_LENGTH}
            placeholder="What is this group about?"
            error={descriptionError}
            disabled={busy}
            onChange={(event) => {
              setDescription(event.target.value);
              if (descriptionError) setDescriptionError(null);
            }}
          />
          <RadioCards
            legend="Who can post"
            name="posting"
            className="mt-4"
            value={posting}
            options={POSTING_OPTIONS}
            onChange={setPosting}
            disabled={busy}
          />
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Create Group
            </Button>
          </div>
        </form>
      )}
    </dialog>
  );
}
