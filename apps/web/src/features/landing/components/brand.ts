// The other brand's 'Coming soon' page (DESIGN §1: /coming-soon). Its outside addresses live here, so an
// operator changes them in one place; its name and words are in the catalogs with every other text, in each
// language (`general.landing.*`: the name is `general.landing.brand`).
export const BRAND = {
  professionalNetworkUrl: 'https://www.linkedin.com/',
  social: {
    linkedin: 'https://www.linkedin.com/',
    x: 'https://x.com/',
    facebook: 'https://www.facebook.com/',
    instagram: 'https://www.instagram.com/',
  },
} as const;
