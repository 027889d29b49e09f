import { useCallback } from 'react';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { withRefresh, type Reactions } from '../../../lib/mutations';
import { editEmail } from './account';
import { revokeAuthApp } from './authApps';
import { addContact, deleteContact, resendContactMail, type CompanyContact } from './contacts';
import { accountKeys } from './keys';

/**
 * Asks for a new email address (applied once the link mailed to it is opened). Resolves once the account's detail,
 * with the address pending, is read again; a refusal is thrown to the caller.
 */
export function useEditEmail(): (email: string) => Promise<void> {
  const qc = useQueryClient();
  return useCallback(
    async (email: string) => {
      await editEmail(email);
      await qc.invalidateQueries({ queryKey: accountKeys.detail });
    },
    [qc],
  );
}

/** Revokes an application the user authorized; the list refreshes. */
export function useRevokeAuthApp(reactions?: Reactions<null, string>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => void qc.invalidateQueries({ queryKey: accountKeys.authApps }) }),
    mutationFn: revokeAuthApp,
  });
}

const refreshContacts = (qc: QueryClient) => void qc.invalidateQueries({ queryKey: accountKeys.contacts });

/** Adds a contact (mailed a link to verify); the contacts refresh. */
export function useAddContact(reactions?: Reactions<CompanyContact, Parameters<typeof addContact>[0]>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refreshContacts(qc) }), mutationFn: addContact });
}

/** Mails a contact its verification link again; the contacts refresh (a new link, a new expiry). */
export function useResendContactMail(reactions?: Reactions<CompanyContact, string>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => refreshContacts(qc) }),
    mutationFn: resendContactMail,
  });
}

/** Deletes a contact; the contacts refresh. */
export function useDeleteContact(reactions?: Reactions<null, string>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refreshContacts(qc) }), mutationFn: deleteContact });
}
