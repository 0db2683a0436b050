import {
  type ChatDetail,
  type ChatMember,
  DESCRIPTION_MAX_LENGTH,
  GROUP_NAME_MAX_LENGTH,
  groupUpdateSchema,
  memberNameOf,
} from '@parley/protocol';
import { LogOut, Save, Trash2 } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { PictureField } from '../../../components/picture-field';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/text-field';
import { serverErrorOr } from '../../../lib/http/api-error';
import { cn } from '../../../lib/ui/cn';
import { focusFirstInvalid } from '../../../lib/ui/focus-first-invalid';
import { toast } from '../../../lib/ui/toast';
import { useDeleteGroup } from '../api/delete-group';
import { useLeaveGroup } from '../api/leave-group';
import { useAddMembers, useRemoveMember } from '../api/manage-members';
import { useUpdateGroup } from '../api/update-group';
import { GROUP_AVATAR_HINT, groupAvatarProblem } from '../lib/group-avatar';
import { AddMembers } from './add-members';
import { ChannelSwitches } from './channel-switches';
import { LEAVE_GROUP_TEXT } from './group-member-view';
import { GroupMembersCard } from './group-members-card';
import { InviteLinksCard } from './invite-links-card';

/** 'Manage Chat Room': the admin edits the group, manages its members, and may delete it. */
export function GroupAdminView({ detail, meId }: { detail: ChatDetail; meId: number }) {
  const chatId = detail.chat_id;
  const current = detail.chat_avatar ?? detail.avatar;
  const descriptionId = useId();
  const [name, setName] = useState(detail.group_name);
  const [description, setDescription] = useState(detail.description ?? '');
  const [channel, setChannel] = useState({ visibility: detail.visibility, posting: detail.posting });
  const [image, setImage] = useState<File | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'delete' | 'leave' | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const navigate = useNavigate();

  const update = useUpdateGroup(chatId);
  const add = useAddMembers(chatId);
  const remove = useRemoveMember(chatId);
  const del = useDeleteGroup(chatId);
  const leave = useLeaveGroup(chatId);

  const save = (event: FormEvent) => {
    event.preventDefault();
    const parsed = groupUpdateSchema.safeParse({ group_name: name, description, ...channel });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      if (issue?.path[0] === 'group_name') {
        setNameError(issue.message);
        focusFirstInvalid(formRef.current);
      } else toast.error(issue?.message ?? 'Please check the form.');
      return;
    }
    update.mutate(
      {
        group_name: parsed.data.group_name ?? name,
        description: parsed.data.description ?? '',
        ...channel,
        image,
      },
      {
        onSuccess: (saved) => {
          setName(saved.group_name);
          setDescription(saved.description ?? '');
          setChannel({ visibility: saved.visibility, posting: saved.posting });
          setImage(null);
          toast.success('Group updated successfully');
        },
        onError: (e) => toast.error(serverErrorOr(e, 'Failed to update the group. Please try again.')),
      },
    );
  };

  const removeMember = (member: ChatMember) => {
    if (member.id === null) return;
    const who = memberNameOf(member);
    remove.mutate(member.id, {
      onSuccess: () => toast.success(`${who} was removed from the group`),
      onError: (e) => toast.error(serverErrorOr(e, 'Failed to remove the member. Please try again.')),
    });
  };

  const addMember = ({ key, name: who }: { key: string | number; name: string }) => {
    add.mutate([key], {
      onSuccess: () => toast.success(`${who} was added to the group`),
      onError: (e) => toast.error(serverErrorOr(e, 'Failed to add the member. Please try again.')),
    });
  };

  const deleteChatroom = () =>
    del.mutate(undefined, {
      onSuccess: () => {
        toast.success('Chatroom deleted');
        void navigate('/chats', { replace: true });
      },
      onError: (e) => {
        setConfirm(null);
        toast.error(serverErrorOr(e, 'Failed to delete the chatroom. Please try again.'));
      },
    });

  const leaveGroup = () =>
    leave.mutate(undefined, {
      onSuccess: () => {
        toast.success('You left the group');
        void navigate('/chats', { replace: true });
      },
      onError: (e) => {
        setConfirm(null);
        toast.error(serverErrorOr(e, 'Failed to leave the group. Please try again.'));
      },
    });

  const saving = update.isPending;
  return (
    <>
      <Card>
        <form ref={formRef} onSubmit={save} noValidate className="space-y-5" aria-label="Group details">
          <TextField
            label="Group name"
            required
            maxLength={GROUP_NAME_MAX_LENGTH}
            value={name}
            error={nameError}
            disabled={saving}
            onChange={(event) => {
              setName(event.target.value);
              if (nameError) setNameError(null);
            }}
          />
          <div className="space-y-1.5">
            <label
              htmlFor={descriptionId}
              className="block text-sm font-medium text-slate-700 dark:text-slate-300"
            >
              Description
            </label>
            <textarea
              id={descriptionId}
              rows={3}
              maxLength={DESCRIPTION_MAX_LENGTH}
              value={description}
              disabled={saving}
              placeholder="What is this group about?"
              aria-describedby={`${descriptionId}-count`}
              onChange={(event) => setDescription(event.target.value)}
              className={cn(
                'block w-full resize-y rounded-lg border border-slate-300 dark:border-slate-700 bg-white dark:bg-slate-900 px-3 py-2 text-sm text-slate-900 dark:text-slate-100 shadow-sm placeholder:text-slate-400 dark:placeholder:text-slate-500',
                'focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-600 disabled:bg-slate-100 dark:disabled:bg-slate-800',
              )}
            />
            <p id={`${descriptionId}-count`} className="text-end text-xs text-slate-500 dark:text-slate-400">
              {description.length}/{DESCRIPTION_MAX_LENGTH}
            </p>
          </div>
          <PictureField
            texts={{
              label: 'Group avatar',
              currentAlt: 'Current group avatar',
              previewAlt: 'Preview of the chosen group avatar',
              choose: image || current ? 'Change image' : 'Upload image',
              remove: 'Remove chosen image',
              hint: GROUP_AVATAR_HINT,
            }}
            current={current}
            group
            file={image}
            onChange={setImage}
            problem={groupAvatarProblem}
            disabled={saving}
          />
          <ChannelSwitches
            value={channel}
            wasPublic={detail.visibility === 'public'}
            disabled={saving}
            onChange={setChannel}
          />
          <div className="flex justify-end">
            <Button type="submit" loading={saving} className="w-full sm:w-auto">
              {!saving && <Save aria-hidden="true" className="size-4" />}
              Save Changes
            </Button>
          </div>
        </form>
      </Card>

      <GroupMembersCard
        detail={detail}
        meId={meId}
        manage
        onRemove={removeMember}
        removingId={remove.isPending ? remove.variables : null}
      >
        <div className="mt-5">
          <AddMembers
            members={detail.members}
            adding={add.isPending ? (add.variables?.[0] ?? null) : null}
            onAdd={addMember}
          />
        </div>
      </GroupMembersCard>

      <InviteLinksCard detail={detail} canRevoke />

      <Card className="border-red-200 dark:border-red-900">
        <CardHeader
          title="Danger zone"
          description="Deleting removes the group, its messages and its files for everyone."
        />
        <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setConfirm('leave')}>
            <LogOut aria-hidden="true" className="size-4 rtl:-scale-x-100" />
            Leave Group
          </Button>
          <Button variant="danger" onClick={() => setConfirm('delete')}>
            <Trash2 aria-hidden="true" className="size-4" />
            Delete Chatroom
          </Button>
        </div>
      </Card>

      <ConfirmDialog
        open={confirm === 'delete'}
        title="Delete Chatroom?"
        confirmLabel="Delete Chatroom"
        danger
        busy={del.isPending}
        onConfirm={deleteChatroom}
        onCancel={() => setConfirm(null)}
      >
        “{detail.group_name}”, its messages and its files will be deleted for every member. This action cannot
        be undone.
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'leave'}
        title="Leave Group?"
        confirmLabel="Leave Group"
        danger
        busy={leave.isPending}
        onConfirm={leaveGroup}
        onCancel={() => setConfirm(null)}
      >
        {LEAVE_GROUP_TEXT} The longest-standing member becomes the admin.
      </ConfirmDialog>
    </>
  );
}
