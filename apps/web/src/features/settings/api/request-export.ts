import { dataExportSchema } from '@parley/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/http/api-client';
import { exportsQueryKey } from './list-exports';

const startedSchema = dataExportSchema.extend({ detail: z.string() });

/** POST /api/users/export/ → 202 with the export (preparing) and what happens next. */
export const requestExport = async () => startedSchema.parse(await api.post('/users/export/'));

export function useRequestExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestExport,
    onSettled: () => queryClient.invalidateQueries({ queryKey: exportsQueryKey }),
  });
}
