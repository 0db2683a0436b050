import type {
  AdminNote,
  AdminStats,
  AdminUser,
  AdminUserSort,
  AdminUsersPage,
  AuditPage,
  InviteCreate,
  InviteLink,
  Report,
  ReportAction,
  ReportList,
  SiteSettings,
  SiteSettingsUpdate,
} from '@parley/protocol';
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';

// The admin API. It answers 404 to anyone but a site admin: the console shows the 404 page then.

export const adminKeys = {
  all: ['admin'] as const,
  stats: () => ['admin', 'stats'] as const,
  users: (q: string, page: number, sort: AdminUserSort, order: 'asc' | 'desc') =>
    ['admin', 'users', { q, page, sort, order }] as const,
  audit: (type: string, user: string) => ['admin', 'audit', { type, user }] as const,
  auditTypes: () => ['admin', 'audit-types'] as const,
  settings: () => ['admin', 'settings'] as const,
  reports: (status: 'open' | 'resolved', page: number) => ['admin', 'reports', { status, page }] as const,
  report: (id: number) => ['admin', 'report', id] as const,
};

/** GET /api/admin/stats/: totals, messages per day for 30 days, online now, storage. */
export const useAdminStats = () =>
  useQuery({
    queryKey: adminKeys.stats(),
    queryFn: () => api.get<AdminStats>('/admin/stats/'),
    retry: false,
    refetchInterval: 30_000,
  });

export function useAdminUsers(q: string, page: number, sort: AdminUserSort, order: 'asc' | 'desc') {
  return useQuery({
    queryKey: adminKeys.users(q, page, sort, order),
    queryFn: () => {
      const params = new URLSearchParams({ q, page: String(page), sort, order });
      return api.get<AdminUsersPage>(`/admin/users/?${params}`);
    },
    placeholderData: keepPreviousData,
  });
}

export type PersonAction = 'deactivate' | 'reactivate' | 'verify' | 'unverify' | 'sign-out' | 'delete';

/** One action on a person, with the note kept in the audit log. */
export function personAction(
  userId: number,
  action: PersonAction,
  body: AdminNote,
): Promise<AdminUser | null> {
  const base = `/admin/users/${userId}`;
  switch (action) {
    case 'unverify':
      // DELETE carries its note in the body too.
      return api.request<AdminUser>(`${base}/verify/`, { method: 'DELETE', body });
    case 'sign-out':
      return api.post<null>(`${base}/sign-out/`, body);
    case 'delete':
      return api.post<null>(`${base}/delete/`, body);
    default:
      return api.post<AdminUser>(`${base}/${action}/`, body);
  }
}

export function usePersonAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { userId: number; action: PersonAction; note: string }) =>
      personAction(v.userId, v.action, { note: v.note }),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export function useAudit(type: string, user: string) {
  return useInfiniteQuery({
    queryKey: adminKeys.audit(type, user),
    initialPageParam: null as number | null,
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams();
      if (type) params.set('type', type);
      if (user) params.set('user', user);
      if (pageParam) params.set('before', String(pageParam));
      return api.get<AuditPage>(`/admin/audit/?${params}`);
    },
    getNextPageParam: (last) => last.next,
  });
}

export const useAuditTypes = () =>
  useQuery({
    queryKey: adminKeys.auditTypes(),
    queryFn: async () => (await api.get<{ types: string[] }>('/admin/audit/types/')).types,
  });

export const useSiteSettings = () =>
  useQuery({ queryKey: adminKeys.settings(), queryFn: () => api.get<SiteSettings>('/admin/settings/') });

export function useSaveSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SiteSettingsUpdate & { note?: string }) =>
      api.put<SiteSettings>('/admin/settings/', body),
    onSuccess: (settings) => client.setQueryData(adminKeys.settings(), settings),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export function useCreateInvite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: InviteCreate) => api.post<InviteLink>('/admin/settings/invites/', body),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export function useRevokeInvite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; note: string }) =>
      api.request<null>(`/admin/settings/invites/${v.id}/`, { method: 'DELETE', body: { note: v.note } }),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export const useReports = (status: 'open' | 'resolved', page: number) =>
  useQuery({
    queryKey: adminKeys.reports(status, page),
    queryFn: () => api.get<ReportList>(`/admin/reports/?status=${status}&page=${page}`),
    placeholderData: keepPreviousData,
  });

/** One report with the reported message and a few messages either side, as they read now. */
export const useReport = (id: number, enabled: boolean) =>
  useQuery({
    queryKey: adminKeys.report(id),
    queryFn: () => api.get<Report>(`/admin/reports/${id}/`),
    enabled,
  });

export function useResolveReport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; action: ReportAction; note: string }) =>
      api.post<Report>(`/admin/reports/${v.id}/resolve/`, { action: v.action, note: v.note }),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
