import { NotFoundError } from './errors';

/**
 * A row id from a URL path (a message's, say): digits naming a positive 32-bit integer. Anything else names no
 * such thing, so it is a 404 with `notFound`, as an id that matches no row.
 */
export function pathId(raw: string, notFound: string): number {
  const id = Number(raw);
  if (!/^\d{1,10}$/.test(raw) || id < 1 || id > 2_147_483_647) throw new NotFoundError(notFound);
  return id;
}
