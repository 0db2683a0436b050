// The reaction picker: a fixed row of the emoji people react with most, rather than a picker package, so the
// room's code stays small and no extra chunk is loaded (README design notes).
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
