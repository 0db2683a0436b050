import { BIO_MAX_LENGTH, displayNameOf, MSG, NAME_MAX_LENGTH, USERNAME_MAX_LENGTH } from '@parley/protocol';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PictureField } from '../../../components/picture-field';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button, buttonClasses } from '../../../components/ui/button';
import { LoadingState } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import { useAuth } from '../../../lib/session/auth-store';
import { usePageTitle } from '../../../lib/ui/document-title';
import { focusFirstInvalid } from '../../../lib/ui/focus-first-invalid';
import { toast } from '../../../lib/ui/toast';
import { useOwnProfile } from '../api/get-own-profile';
import { useUpdateProfile } from '../api/update-profile';
import {
  imageProblem,
  missingRequired,
  type ProfileFields,
  updateFailureMessage,
} from '../lib/profile-errors';
import { ProfileTextArea, ProfileTextField } from './form-fields';

/** SPEC §2: after a successful update the screen waits this long, then goes to /profile. */
const BACK_TO_PROFILE_MS = 500;

interface Initial extends ProfileFields {
  avatar: string | null;
}

/** /profile/edit: the form starts from the own profile, or from the signed-in user when that fails to load. */
export function EditProfilePage() {
  const t = useT();
  usePageTitle(t('account.profile.title'));
  const profile = useOwnProfile();
  const user = useAuth((s) => s.user);

  let content: ReactNode;
  if (profile.isPending) content = <LoadingState label={t('profile.loading')} />;
  else if (profile.isSuccess && profile.data) {
    const p = profile.data;
    content = (
      <EditProfileForm
        key="profile"
        initial={{
          first_name: p.first_name,
          last_name: p.last_name,
          username: p.username,
          bio: p.bio ?? '',
          avatar: p.avatar,
        }}
      />
    );
  } else {
    content = (
      <EditProfileForm
        key="fallback"
        loadError={t('account.profile.loadFailed')}
        initial={{
          first_name: user?.first_name ?? '',
          last_name: user?.last_name ?? '',
          username: user?.username ?? '',
          bio: '',
          avatar: user?.avatar ?? null,
        }}
      />
    );
  }

  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-6 sm:px-6 sm:py-10">
      <h1
        id="edit-profile-title"
        className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100"
      >
        {t('account.profile.title')}
      </h1>
      <p className="mt-1 mb-6 text-sm text-slate-500 dark:text-slate-400">{t('account.profile.intro')}</p>
      {content}
    </div>
  );
}

function EditProfileForm({ initial, loadError }: { initial: Initial; loadError?: string }) {
  const t = useT();
  const navigate = useNavigate();
  const update = useUpdateProfile();
  const formRef = useRef<HTMLFormElement>(null);
  const [fields, setFields] = useState<ProfileFields>({
    first_name: initial.first_name,
    last_name: initial.last_name,
    username: initial.username,
    bio: initial.bio,
  });
  const [image, setImage] = useState<File | null>(null);
  const [missing, setMissing] = useState<Array<keyof ProfileFields>>([]);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const busy = update.isPending || done;
  const bind = (key: keyof ProfileFields) => ({
    name: key,
    value: fields[key],
    invalid: missing.includes(key),
    onChange: (event: { target: { value: string } }) => {
      setFields((f) => ({ ...f, [key]: event.target.value }));
      const stillMissing = missing.filter((k) => k !== key);
      setMissing(stillMissing);
      // The required-fields banner goes once every required field has been filled in.
      if (stillMissing.length === 0 && error === localText(MSG.profileRequired)) setError(null);
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const blank = missingRequired(fields);
    setMissing(blank);
    if (blank.length > 0) {
      setError(localText(MSG.profileRequired));
      return focusFirstInvalid(formRef.current);
    }
    setError(null);
    update.mutate(
      {
        first_name: fields.first_name.trim(),
        last_name: fields.last_name.trim(),
        username: fields.username.trim(),
        bio: fields.bio.trim(),
        image,
      },
      {
        onSuccess: () => {
          setDone(true);
          toast.success(localText(MSG.profileUpdated));
          timer.current = setTimeout(() => void navigate('/profile'), BACK_TO_PROFILE_MS);
        },
        onError: (failure) => setError(updateFailureMessage(failure)),
      },
    );
  };

  const name = displayNameOf(fields);
  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={onSubmit}
      aria-labelledby="edit-profile-title"
      className="space-y-6 rounded-2xl border border-slate-200 dark:border-slate-800 bg-white dark:bg-slate-900 p-5 shadow-sm sm:p-6"
    >
      {loadError && <ErrorBanner>{loadError}</ErrorBanner>}
      {error && <ErrorBanner>{error}</ErrorBanner>}

      <PictureField
        texts={{
          label: t('account.profile.picture'),
          currentAlt: t('account.profile.currentPicture'),
          previewAlt: t('account.profile.preview'),
          choose: image ? t('account.profile.chooseAnother') : t('account.profile.upload'),
          remove: t('account.profile.removeChosen'),
          hint: t('account.profile.pictureHint'),
        }}
        current={initial.avatar}
        name={name}
        file={image}
        onChange={setImage}
        problem={imageProblem}
        droppable
        disabled={busy}
      />

      <div className="grid gap-4 sm:grid-cols-2">
        <ProfileTextField
          label={t('auth.field.firstName')}
          required
          autoComplete="given-name"
          maxLength={NAME_MAX_LENGTH}
          disabled={busy}
          {...bind('first_name')}
        />
        <ProfileTextField
          label={t('auth.field.lastName')}
          required
          autoComplete="family-name"
          maxLength={NAME_MAX_LENGTH}
          disabled={busy}
          {...bind('last_name')}
        />
      </div>
      <ProfileTextField
        label={t('auth.field.username')}
        required
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={USERNAME_MAX_LENGTH}
        disabled={busy}
        {...bind('username')}
      />
      <ProfileTextArea
        label={t('profile.bio')}
        name="bio"
        rows={4}
        maxLength={BIO_MAX_LENGTH}
        placeholder={t('account.profile.bioPlaceholder')}
        hint={`${fields.bio.length}/${BIO_MAX_LENGTH}`}
        value={fields.bio}
        disabled={busy}
        onChange={(event) => setFields((f) => ({ ...f, bio: event.target.value }))}
      />

      <div className="flex flex-col-reverse gap-2 border-t border-slate-100 dark:border-slate-800 pt-5 sm:flex-row sm:justify-end">
        <Link
          to="/profile"
          className={buttonClasses('secondary', 'md')}
          aria-disabled={busy || undefined}
          onClick={(event) => busy && event.preventDefault()}
        >
          {t('account.cancel')}
        </Link>
        <Button type="submit" loading={busy}>
          {busy ? t('account.profile.updating') : t('account.profile.update')}
        </Button>
      </div>
    </form>
  );
}
