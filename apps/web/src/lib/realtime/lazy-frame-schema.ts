// A socket's frames are checked against the protocol's zod schemas, which are loaded beside the socket's first
// ticket rather than with the first screen; a frame that fails its schema is dropped and counted, never cast.

/**
 * What a frame is checked against: a zod schema from @parley/protocol (`serverFrameSchema`,
 * `notificationFrameSchema`). Only the parts this client reads are named, so tests may pass their own.
 */
export interface FrameSchema<Frame> {
  safeParse(
    data: unknown,
  ):
    | { success: true; data: Frame }
    | { success: false; error: { issues: ReadonlyArray<{ path: PropertyKey[] }> } };
}

/**
 * A frame schema loaded on demand: building zod's schemas takes a phone a tenth of a second or more, which a
 * screen's first drawing need not wait for. `ready()` loads it (await it in the socket's `url`, beside the
 * ticket, so no frame comes before it); parsing before that is a programming error.
 */
export function lazyFrameSchema<Frame>(load: () => Promise<FrameSchema<Frame>>): {
  schema: FrameSchema<Frame>;
  ready: () => Promise<void>;
} {
  let loaded: FrameSchema<Frame> | null = null;
  let loading: Promise<void> | null = null;
  return {
    schema: {
      safeParse: (data) => {
        if (!loaded) throw new Error('The frame schema is not loaded');
        return loaded.safeParse(data);
      },
    },
    ready: () =>
      (loading ??= load().then(
        (schema) => {
          loaded = schema;
        },
        (error: unknown) => {
          // A failed load (offline) is tried again by the next attempt.
          loading = null;
          throw error;
        },
      )),
  };
}

let droppedFrames = 0;

/** How many frames failed their schema and were dropped since the page loaded (for tests). */
export const droppedFrameCount = (): number => droppedFrames;

/**
 * A frame that is JSON with a `type` but not the shape its schema says: dropped, and reported with its type
 * and the paths of what was wrong only. Never its values: a frame carries message bodies.
 */
export function dropFrame(type: string, issues: ReadonlyArray<{ path: PropertyKey[] }>): void {
  droppedFrames++;
  const paths = issues.map((issue) => issue.path.map(String).join('.') || '(frame)');
  console.warn('Dropped a malformed socket frame', { type: type.slice(0, 64), paths });
}
