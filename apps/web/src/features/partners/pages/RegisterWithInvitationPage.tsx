import { useEffect } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { useSession } from '../../../lib/session';
import { RegisterWayPage } from '../../register';
import { invitationPath, rememberInvitation } from '../lib/invitation';

/**
 * /register as the emailed invitation opens it (/register?invitation=<token>): the token is kept in
 * sessionStorage through registration and email confirmation, then the normal registration page shows.
 * Someone already signed in goes straight to the confirmation screen.
 */
export default function RegisterWithInvitationPage() {
  const [params] = useSearchParams();
  const token = params.get('invitation')?.trim() || null;
  const { signedIn } = useSession();
  useEffect(() => rememberInvitation(token), [token]);
  if (token && signedIn) return <Navigate to={invitationPath(token)} replace />;
  return <RegisterWayPage />;
}
