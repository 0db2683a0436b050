import { Page } from '../../../components/page';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { LoadingState } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n/i18n';
import { useSettings } from '../../../lib/queries/settings-query';
import { ApiTokensSection } from './api-tokens-section';
import { BlockedPeopleSection } from './blocked-people-section';
import { BotsSection } from './bots-section';
import { DataExportSection } from './data-export-section';
import { DeleteAccountSection } from './delete-account-section';
import { EmailSetting } from './email-setting';
import { LanguageSection } from './language-section';
import { SessionsSection } from './sessions-section';
import { SettingsSwitches } from './settings-switches';
import { ThemeSection } from './theme-section';
import { TwoStepSection } from './two-step-section';

/**
 * /settings: email with verification, privacy and notification switches, two-step sign-in, sessions, the export
 * of one's data, account deletion.
 */
export function SettingsPage() {
  const t = useT();
  const settings = useSettings();
  return (
    <Page title={t('settings.title')} description={t('settings.description')}>
      {settings.isPending ? (
        <LoadingState label={t('settings.loading')} />
      ) : settings.isError ? (
        <div className="space-y-3">
          <ErrorBanner>{t('settings.loadFailed')}</ErrorBanner>
          <Button variant="secondary" onClick={() => void settings.refetch()}>
            {t('settings.tryAgain')}
          </Button>
        </div>
      ) : (
        <>
          <EmailSetting settings={settings.data} />
          <LanguageSection settings={settings.data} />
          <SettingsSwitches profile={settings.data.profile} />
          <TwoStepSection />
          <SessionsSection />
          <ApiTokensSection />
          <BlockedPeopleSection />
          <BotsSection />
          <DataExportSection />
          <DeleteAccountSection />
        </>
      )}
      {/* Kept per browser, not in the account: shown whatever the settings' load did. */}
      <ThemeSection />
    </Page>
  );
}
