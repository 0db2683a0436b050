import { clockTime } from './locale-format';

// The time under each message bubble. One formatter for every bubble and language (locale-format.ts keeps them):
// toLocaleTimeString with options builds a new Intl.DateTimeFormat on each call, which was the single largest cost
// of drawing a room (about 2 ms a message on a mid-range phone). The first Intl use of a page loads the locale's
// data (tens of milliseconds on a phone): index.html does that while the app's code downloads, not inside the
// render that draws a room.

/** A message's local time, hours and minutes as the reader's locale writes them. */
export const timeOf = (iso: string): string => clockTime(iso);
