import { type DataExport, dataExportListSchema } from '@parley/protocol';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';

export const exportsQueryKey = ['users', 'exports'] as const;

/** GET /api/users/export/ → the person's exports of the last 24 hours, newest first. */
export const listExports = async (): Promise<DataExport[]> =>
  dataExportListSchema.parse(await api.get('/users/export/')).results;

/** Asks again every few seconds while an export is being prepared. */
export const useExports = () =>
  useQuery({
    queryKey: exportsQueryKey,
    queryFn: listExports,
    refetchInterval: (query) => (query.state.data?.some((e) => e.status === 'preparing') ? 3000 : false),
  });
