// The other brand's 'Coming soon' page (DESIGN §1: /coming-soon). Its name and its outside addresses live
// here, so an operator changes them in one place; its words (the tagline too) are in the catalogs, in each
// language (`general.landing.*`).
export const BRAND = {
  name: 'Gigspace',
  professionalNetworkUrl: 'https://www.linkedin.com/',
  social: {
    linkedin: 'https://www.linkedin.com/',
    x: 'https://x.com/',
    facebook: 'https://www.facebook.com/',
    instagram: 'https://www.instagram.com/',
  },
} as const;
