// The reaction menu's quick row: the emoji people react with most, drawn at once with no extra chunk; its 'More
// emoji' opens the full picker the composer uses too (components/emoji-picker.tsx, loaded when first opened).
export const FREQUENT_EMOJI = [
  '👍',
  '❤️',
  '😂',
  '😮',
  '😢',
  '🙏',
  '🎉',
  '🔥',
  '👏',
  '😊',
  '🤔',
  '👀',
] as const;
