// The emoji data (emojibase, English) that both the emoji picker and the :shortcode completion read. It is a
// hashed file of the build, served by Parley itself (the CSP allows no other host, and a self-hosted server may
// have no Internet), fetched only when one of them is first used.
import dataUrl from 'emoji-picker-element-data/en/emojibase/data.json?url';

export const EMOJI_DATA_URL: string = dataUrl;
