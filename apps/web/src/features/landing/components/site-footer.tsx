import { Briefcase } from 'lucide-react';
import { Link } from 'react-router';
import { type MessageId, useT } from '../../../lib/i18n/i18n';
import { SLOT, Slotted } from '../../../lib/i18n/slotted';
import { BRAND } from './brand';
import { FacebookIcon, InstagramIcon, LinkedInIcon, XIcon } from './social-icons';

const EXPLORE: Array<{ to: string; label: MessageId }> = [
  { to: '/', label: 'general.landing.home' },
  { to: '/technologies', label: 'general.landing.technologies' },
  { to: '/projects', label: 'general.landing.projects' },
  { to: '/contact', label: 'general.landing.contact' },
];
// SPEC §2: the Support entries have no targets yet, so they are plain text rather than dead links.
const SUPPORT: MessageId[] = [
  'general.landing.helpCenter',
  'general.landing.terms',
  'general.landing.privacy',
  'general.landing.faq',
];
// The networks' own names, never translated.
const SOCIAL = [
  { href: BRAND.social.linkedin, label: 'LinkedIn', icon: LinkedInIcon },
  { href: BRAND.social.x, label: 'X (Twitter)', icon: XIcon },
  { href: BRAND.social.facebook, label: 'Facebook', icon: FacebookIcon },
  { href: BRAND.social.instagram, label: 'Instagram', icon: InstagramIcon },
];

const linkClass =
  'rounded text-sm text-slate-300 transition-colors hover:text-white hover:underline underline-offset-4';

/** The landing page's footer (the only page that has one): Explore, Support and social links. */
export function SiteFooter() {
  const t = useT();
  const brand = t('general.landing.brand');
  const year = new Date().getFullYear();
  return (
    <footer className="bg-slate-900 text-slate-300 [&_:focus-visible]:outline-white">
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-x-6 gap-y-10 px-4 py-12 sm:px-6 md:grid-cols-[1.5fr_1fr_1fr_1fr]">
        <div className="col-span-2 md:col-span-1">
          <p className="inline-flex items-center gap-2 text-lg font-semibold text-white">
            <span className="inline-flex size-8 items-center justify-center rounded-lg bg-emerald-500 text-slate-900">
              <Briefcase aria-hidden="true" className="size-4.5" />
            </span>
            <span translate="no">{brand}</span>
          </p>
          <p className="mt-3 max-w-xs text-sm text-slate-400">
            {t('general.landing.about', { tagline: t('general.landing.tagline') })}
          </p>
        </div>
        <nav aria-labelledby="footer-explore">
          <h2 id="footer-explore" className="text-sm font-semibold tracking-wide text-white uppercase">
            {t('general.landing.explore')}
          </h2>
          <ul className="mt-4 space-y-2.5">
            {EXPLORE.map(({ to, label }) => (
              <li key={to}>
                <Link to={to} className={linkClass}>
                  {t(label)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">
            {t('general.landing.support')}
          </h2>
          <ul className="mt-4 space-y-2.5">
            {SUPPORT.map((label) => (
              <li key={label} className="text-sm text-slate-400">
                {t(label)}
              </li>
            ))}
          </ul>
        </div>
        <div className="col-span-2 md:col-span-1">
          <h2 id="footer-social" className="text-sm font-semibold tracking-wide text-white uppercase">
            {t('general.landing.followUs')}
          </h2>
          <ul aria-labelledby="footer-social" className="mt-4 flex flex-wrap gap-2">
            {SOCIAL.map(({ href, label, icon: Icon }) => (
              <li key={label}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex size-10 items-center justify-center rounded-lg bg-slate-800 text-slate-300 transition-colors hover:bg-slate-700 hover:text-white"
                >
                  <Icon className="size-5" />
                  {/* Named by its text: the network's name stays as it is, the rest is the reader's language. */}
                  <span className="sr-only">
                    <Slotted text={t('general.landing.socialLink', { name: SLOT })}>
                      <span translate="no">{label}</span>
                    </Slotted>
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="border-t border-slate-800">
        <p className="mx-auto max-w-6xl px-4 py-5 text-xs text-slate-400 sm:px-6">
          <Slotted text={t('general.landing.rights', { year, brand: SLOT })}>
            <span translate="no">{brand}</span>
          </Slotted>
        </p>
      </div>
    </footer>
  );
}
