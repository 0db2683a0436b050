// The corpus's language: a seeded random source, a vocabulary of VOCABULARY_SIZE words ranked by frequency, and
// Zipf sampling over the ranks, so a few words are everywhere and most are rare, as in real chat.
export const VOCABULARY_SIZE = 30_000;
/** Zipf's exponent for words: rank r is drawn with weight 1 / r^s (about 1 for natural language). */
const WORD_EXPONENT = 1.07;

/** mulberry32: small, fast and the same on every machine for the same seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;

export const pick = <T>(random: Random, list: readonly T[]): T =>
  list[Math.floor(random() * list.length)] as T;

/** A standard normal deviate (Box–Muller). */
export const normal = (random: Random) =>
  Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/** Draws ranks 0 … weights.length-1 in proportion to 1 / (rank+1)^exponent. */
export function zipf(size: number, exponent: number): (random: Random) => number {
  const cdf = new Float64Array(size);
  let total = 0;
  for (let r = 0; r < size; r++) {
    total += 1 / (r + 1) ** exponent;
    cdf[r] = total;
  }
  return (random) => {
    const x = random() * total;
    let lo = 0;
    let hi = size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cdf[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

// The most frequent words are real ones, so the common-word queries read like what people type.
const COMMON = `the i you to a and it is that of in for on this we be have just so do not with can but are
 what my me at was if will all get it's up out yes no ok know like ok think about now there one or your time
 good from then when they how today see meeting deploy thanks please here need want make go back tomorrow team
 work call review build issue fix test release branch merge update client server lunch coffee week code bug
 data customer design plan docs later sorry sure great nice cool done yeah hey morning`
  .split(/\s+/)
  .filter(Boolean);

// Accented words at chosen ranks: common, middling and rare, for the accent-folding queries (`cafe` finds café).
const ACCENTED: [rank: number, word: string][] = [
  [140, 'café'],
  [420, 'résumé'],
  [900, 'naïve'],
  [1_600, 'déjà'],
  [2_500, 'façade'],
  [4_000, 'crème'],
  [6_500, 'jalapeño'],
  [9_000, 'fiancée'],
  [14_000, 'señor'],
  [21_000, 'zürich'],
];

const ONSETS = 'b c d f g h j k l m n p r s t v w z br ch cl dr fl gr pl pr sh st th tr'.split(' ');
const VOWELS = 'a e i o u a e i o ai ea ou'.split(' ');
const CODAS = ['', '', '', 'n', 'r', 's', 't', 'l', 'nd', 'st', 'ck'];
const ACCENT = { a: 'á', e: 'é', i: 'ï', o: 'ö', u: 'ü' } as Record<string, string>;

/** The vocabulary, most frequent first: real words, then made-up ones of 1–4 syllables, 3% of them accented. */
export function vocabulary(random: Random): string[] {
  const words = new Set<string>(COMMON);
  while (words.size < VOCABULARY_SIZE - ACCENTED.length) {
    const syllables = 1 + Math.floor(random() * random() * 3) + (words.size > 2_000 ? 1 : 0);
    let w = '';
    for (let s = 0; s < syllables; s++)
      w += pick(random, ONSETS) + pick(random, VOWELS) + pick(random, CODAS);
    if (random() < 0.03) w = w.replace(/[aeiou]/, (v) => ACCENT[v] ?? v);
    if (w.length >= 3) words.add(w);
  }
  const list = [...words];
  for (const [rank, word] of ACCENTED) list.splice(rank, 0, word);
  return list;
}

export const wordRank = zipf(VOCABULARY_SIZE, WORD_EXPONENT);

/** Words in a chat message: mostly a handful, now and then a paragraph (log-normal, median ≈ 5). */
export const messageLength = (random: Random) =>
  Math.min(120, Math.max(1, Math.round(Math.exp(1.6 + 0.85 * normal(random)))));

/** A chat line: Zipf-drawn words, sometimes capitalised and punctuated. */
export function messageBody(random: Random, words: readonly string[]): string {
  const n = messageLength(random);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let w = words[wordRank(random)] as string;
    if (i === 0 && random() < 0.4) w = w.charAt(0).toUpperCase() + w.slice(1);
    if (i < n - 1 && random() < 0.06) w += ',';
    out.push(w);
  }
  const end = random();
  return out.join(' ') + (end < 0.15 ? '?' : end < 0.25 ? '.' : end < 0.3 ? '!' : '');
}
