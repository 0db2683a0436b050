import { GROUP_NAME_MAX_LENGTH, groupCreateSchema, MSG } from '@parley/protocol';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { fieldErrors, isApiError } from '../../../lib/http/api-error';
import { toast } from '../../../lib/ui/toast';
import { createGroupErrorText, useCreateGroup } from '../api/create-group';

/** 'New Group': asks for a name, creates the group and opens /groups/{chat_id}; a failure is a toast. */
export function NewGroupDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const createGroup = useCreateGroup();
  const navigate = useNavigate();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setName('');
      setError(null);
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = groupCreateSchema.safeParse({ group_name: name });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Group name is required.');
      return;
    }
    createGroup.mutate(parsed.data.group_name, {
      onSuccess: ({ chat_id }) => {
        onClose();
        void navigate(`/groups/${encodeURIComponent(chat_id)}`);
      },
      onError: (e) => {
        // The server's word on the name goes under the field; anything else is SPEC's toast.
        const onName = isApiError(e) ? fieldErrors(e.body).group_name : undefined;
        if (onName) setError(onName);
        else toast.error(createGroupErrorText(e));
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
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl bg-white dark:bg-slate-900 p-0 text-slate-900 dark:text-slate-100 shadow-xl"
    >
      <form onSubmit={submit} className="p-6" noValidate>
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
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Create Group
          </Button>
        </div>
      </form>
    </dialog>
  );
}
