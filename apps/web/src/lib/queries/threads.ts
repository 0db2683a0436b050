// The threads a person follows, as cached: the Threads view reads them, a thread read or followed marks them
// stale, and so does a reply the notification channel tells of.

export const threadQueryKeys = {
  followed: () => ['threads', 'followed'] as const,
};
