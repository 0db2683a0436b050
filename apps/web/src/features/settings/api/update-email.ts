import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';

export interface EmailUpdateResponse {
  requires_verification?: boolean;
  pending_email?: string;
  message?: string;
  email?: string;
}

/** PUT /api/users/email/update/ → {requires_verification, pending_email}; the code goes to the new address. */
export const updateEmail = (email: string): Promise<EmailUpdateResponse> =>
  api.put<EmailUpdateResponse>('/users/email/update/', { email });

export const useUpdateEmail = () => useMutation({ mutationFn: updateEmail });
