import { API_BASE_URL } from '../../../lib/http/api-client';
import { ApiError } from '../../../lib/http/api-error';
import { browserAuthStorage, readToken } from '../../../lib/session/auth-storage';

/**
 * GET /api/users/export/{id}/ with the session's token (a plain link cannot carry it), then hands the ZIP to
 * the browser as a download.
 */
export async function downloadExport(id: string): Promise<void> {
  const token = readToken(browserAuthStorage);
  let response: Response;
  try {
    response = await fetch(`${API_BASE_URL}/users/export/${encodeURIComponent(id)}/`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
  } catch {
    throw new ApiError(0, null);
  }
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null));
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = 'parley-export.zip';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
