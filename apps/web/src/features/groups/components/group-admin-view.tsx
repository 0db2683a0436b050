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
import { useT } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import { SLOT, Slotted } from '../../../lib/i18n/slotted';
import { cn } from '../../../lib/ui/cn';
import { focusFirstInvalid } from '../../../lib/ui/focus-first-invalid';
import { toast } from '../../../lib/ui/toast';
import { useDeleteGroup } from '../api/delete-group';
import { useLeaveGroup } from '../api/leave-group';
import { useAddMembers, useRemoveMember } from '../api/manage-members';
import { useUpdateGroup } from '../api/update-group';
import { groupAvatarProblem } from '../lib/group-avatar';
import '../lib/group-texts';
import { AddMembers } from './add-members';
import { ChannelSwitches } from './channel-switches';
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
  const t = useT();

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
        setNameError(localText(issue.message));
        focusFirstInvalid(formRef.current);
      } else toast.error(issue ? localText(issue.message) : t('groups.admin.checkForm'));
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
          toast.success(t('groups.admin.updated'));
        },
        onError: (e) => toast.error(serverErrorOr(e, t('groups.admin.updateFailed'))),
      },
    );
  };

  const removeMember = (member: ChatMember) => {
    if (member.id === null) return;
    const who = memberNameOf(member);
    remove.mutate(member.id, {
      onSuccess: () => toast.success(t('groups.admin.removed', { name: who })),
      onError: (e) => toast.error(serverErrorOr(e, t('groups.admin.removeFailed'))),
    });
  };

  const addMember = ({ key, name: who }: { key: string | number; name: string }) => {
    add.mutate([key], {
      onSuccess: () => toast.success(t('groups.admin.added', { name: who })),
      onError: (e) => toast.error(serverErrorOr(e, t('groups.admin.addFailed'))),
    });
  };

  const deleteChatroom = () =>
    del.mutate(undefined, {
      onSuccess: () => {
        toast.success(t('groups.admin.deleted'));
        void navigate('/chats', { replace: true });
      },
      onError: (e) => {
        setConfirm(null);
        toast.error(serverErrorOr(e, t('groups.admin.deleteFailed')));
      },
    });

  const leaveGroup = () =>
    leave.mutate(undefined, {
      onSuccess: () => {
        toast.success(t('groups.left'));
        void navigate('/chats', { replace: true });
      },
      onError: (e) => {
        setConfirm(null);
        toast.error(serverErrorOr(e, t('groups.leaveFailed')));
      },
    });

  const saving = update.isPending;
  return (
    <>
      <Card>
        <form
          ref={formRef}
          onSubmit={save}
          noValidate
          className="space-y-5"
          aria-label={t('groups.admin.details')}
        >
          <TextField
            label={t('groups.name')}
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
              {t('groups.admin.description')}
            </label>
            <textarea
              id={descriptionId}
              rows={3}
              maxLength={DESCRIPTION_MAX_LENGTH}
              value={description}
              disabled={saving}
              placeholder={t('groups.descriptionPlaceholder')}
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
              label: t('groups.avatar.label'),
              currentAlt: t('groups.avatar.currentAlt'),
              previewAlt: t('groups.avatar.previewAlt'),
              choose: image || current ? t('groups.avatar.change') : t('groups.avatar.upload'),
              remove: t('groups.avatar.remove'),
              hint: t('groups.avatar.hint'),
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
              {t('groups.admin.save')}
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
        <CardHeader title={t('groups.danger.title')} description={t('groups.danger.description')} />
        <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setConfirm('leave')}>
            <LogOut aria-hidden="true" className="size-4 rtl:-scale-x-100" />
            {t('groups.leave')}
          </Button>
          <Button variant="danger" onClick={() => setConfirm('delete')}>
            <Trash2 aria-hidden="true" className="size-4" />
            {t('groups.delete')}
          </Button>
        </div>
      </Card>

      <ConfirmDialog
        open={confirm === 'delete'}
        title={t('groups.delete.confirm')}
        confirmLabel={t('groups.delete')}
        danger
        busy={del.isPending}
        onConfirm={deleteChatroom}
        onCancel={() => setConfirm(null)}
      >
        <Slotted text={t('groups.delete.body', { name: SLOT })}>
          <span translate="no">{detail.group_name}</span>
        </Slotted>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'leave'}
        title={t('groups.leave.confirm')}
        confirmLabel={t('groups.leave')}
        danger
        busy={leave.isPending}
        onConfirm={leaveGroup}
        onCancel={() => setConfirm(null)}
      >
        {t('groups.leave.bodyAdmin')}
      </ConfirmDialog>
    </>
  );
}
