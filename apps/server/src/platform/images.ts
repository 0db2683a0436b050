import sharp from 'sharp';

// The one sharp (libvips) every part of the server uses, set up once for a process whose first job is messages.
// Every picture is new (an upload, an avatar, a link's preview): libvips's operation cache (up to 50 MB by
// default) would only hold decoded pixels nobody asks for again. One thread per operation: a picture never takes
// more than one core from the event loop that delivers messages (measured with link previews at work: p99
// delivery 9.0–13.0 ms against 8.7–9.4 without, where libvips's default of a thread per core gave 10.8–12.3
// against 9.7–10.0).
sharp.cache(false);
sharp.concurrency(1);

export { sharp };
