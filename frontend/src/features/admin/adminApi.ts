import { baseApi } from '@/api/baseApi';
import type { Schema } from '@/api/types';

/** One account as the admin sees it (`GET /api/admin/users`). */
/** `storageCapGB`: the account's storage cap in GB; null for none. */
export type AdminUser = Schema<'UserView'>;

/** What an admin may change of an account; each field is optional. */
export type AdminUserChanges = Schema<'UserChange'>;

/** `usedBy`: the email of the account that used it. */
export type Invitation = Schema<'InvitationView'>;

/** A new invitation: `url` (the sign-up link with its token) is answered this once only. */
export type CreatedInvitation = Schema<'NewInvitationView'>;

export const ADMIN_ERRORS = {
  fetchUsers: 'Failed to fetch users',
  updateUser: 'Failed to update user',
  deleteUser: 'Failed to delete user',
  fetchInvitations: 'Failed to fetch invitations',
  createInvitation: 'Failed to create invitation',
  revokeInvitation: 'Failed to revoke invitation',
  copyLink: 'Failed to copy the link',
} as const;

/** Invitation lifetimes offered, in hours (the server allows 1 to 720; 72 is its default). */
export const INVITATION_EXPIRY_CHOICES: ReadonlyArray<{ hours: number; label: string }> = [
  { hours: 24, label: '1 day' },
  { hours: 72, label: '3 days' },
  { hours: 168, label: '7 days' },
  { hours: 720, label: '30 days' },
];
export const DEFAULT_INVITATION_HOURS = 72;

export type InvitationStatus = 'pending' | 'used' | 'expired';

export function invitationStatus(invitation: Invitation, now = Date.now()): InvitationStatus {
  if (invitation.usedAt) return 'used';
  return Date.parse(invitation.expiresAt) <= now ? 'expired' : 'pending';
}

export const adminApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getAdminUsers: build.query<AdminUser[], void>({
      query: () => '/admin/users',
      transformResponse: (response: Schema<'Envelope_UsersView'>) => response.data.users,
      providesTags: ['AdminUser'],
    }),
    updateAdminUser: build.mutation<AdminUser, { id: string; changes: AdminUserChanges }>({
      query: ({ id, changes }) => ({ url: `/admin/users/${encodeURIComponent(id)}`, method: 'PATCH', body: changes }),
      transformResponse: (response: Schema<'Envelope_UserView'>) => response.data,
      extraOptions: { maxRetries: 0 },
      // The answer is the whole row: put it in place rather than fetch the list again.
      async onQueryStarted(_args, { dispatch, queryFulfilled }) {
        try {
          const { data: updated } = await queryFulfilled;
          dispatch(
            adminApi.util.updateQueryData('getAdminUsers', undefined, (users) =>
              users.map((user) => (user.id === updated.id ? updated : user)),
            ),
          );
        } catch {
          // The caller shows the error; the list is unchanged.
        }
      },
    }),
    deleteAdminUser: build.mutation<void, string>({
      query: (id) => ({ url: `/admin/users/${encodeURIComponent(id)}`, method: 'DELETE' }),
      extraOptions: { maxRetries: 0 },
      // An invitation used by the deleted account may name it.
      invalidatesTags: ['AdminUser', 'AdminInvitation'],
    }),
    getInvitations: build.query<Invitation[], void>({
      query: () => '/admin/invitations',
      transformResponse: (response: Schema<'Envelope_InvitationsView'>) => response.data.invitations,
      providesTags: ['AdminInvitation'],
    }),
    createInvitation: build.mutation<CreatedInvitation, Schema<'InvitationRequest'>>({
      query: (body) => ({ url: '/admin/invitations', method: 'POST', body }),
      transformResponse: (response: Schema<'Envelope_NewInvitationView'>) => response.data,
      extraOptions: { maxRetries: 0 },
      invalidatesTags: ['AdminInvitation'],
    }),
    revokeInvitation: build.mutation<void, string>({
      query: (id) => ({ url: `/admin/invitations/${encodeURIComponent(id)}`, method: 'DELETE' }),
      extraOptions: { maxRetries: 0 },
      invalidatesTags: ['AdminInvitation'],
    }),
  }),
});

export const {
  useGetAdminUsersQuery,
  useUpdateAdminUserMutation,
  useDeleteAdminUserMutation,
  useGetInvitationsQuery,
  useCreateInvitationMutation,
  useRevokeInvitationMutation,
} = adminApi;
