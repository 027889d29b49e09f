import { useEffect, useState } from 'react';
import { Alert, Button, Result } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicPage } from '../../../components/PublicPage';
import { errorText } from '../../../lib/http';
import { logout } from '../../../lib/session';
import { confirmInvitation } from '../api/confirmInvitation';
import { NoAccess } from '../components/NoAccess';
import { forgetInvitation, storedInvitation, tokenFromSearch } from '../lib/invitation';
import { invitationFailure } from '../lib/partnerRules';
import { messageOf } from '../../../lib/errors';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['partners'];

export const PARTNER_LIST_PATH = '/partner-management';

/**
 * /partner-list-from-email (token screen): the invited laboratory confirms the clinic's invitation.
 * The token comes from ?token= / ?invitation=, else from the one kept while registering.
 */
export default function PartnerInvitationPage() {
  const { t } = useTranslation('partners');
  const { search } = useLocation();
  const [token] = useState(() => tokenFromSearch(search) ?? storedInvitation());
  // The token now lives in this screen's address: `/` must not send the user back here again.
  useEffect(() => {
    if (tokenFromSearch(search)) forgetInvitation();
  }, [search]);
  const confirm = useMutation({
    mutationFn: (tk: string) => confirmInvitation(tk),
    onSuccess: () => forgetInvitation(),
    onError: (err) => {
      // A used or expired link will never work: stop offering it after sign-in.
      if (invitationFailure(err) !== 'other') forgetInvitation();
    },
  });
  const failure = confirm.error ? invitationFailure(confirm.error) : null;
  const toList = (
    <Link to={PARTNER_LIST_PATH} data-testid="partner-invitation-to-list">
      {t('invitation.toList')}
    </Link>
  );

  let body: React.ReactNode;
  if (!token) {
    body = (
      <Result
        status="warning"
        data-testid="partner-invitation-missing"
        title={t('invitation.missing')}
        extra={toList}
      />
    );
  } else if (confirm.data) {
    body = (
      <Result
        status="success"
        data-testid="partner-invitation-confirmed"
        title={t('invitation.confirmed', { name: confirm.data.organization.name })}
        extra={
          <Link to={PARTNER_LIST_PATH} data-testid="partner-invitation-to-list">
            <Button type="primary">{t('invitation.toList')}</Button>
          </Link>
        }
      />
    );
  } else if (failure === 'expired') {
    body = (
      <Result
        status="warning"
        data-testid="partner-invitation-expired"
        title={t('invitation.expired')}
        subTitle={t('invitation.expiredHint')}
        extra={toList}
      />
    );
  } else if (failure === 'invalid') {
    body = (
      <Result
        status="error"
        data-testid="partner-invitation-invalid"
        title={t('invitation.invalid')}
        subTitle={t('invitation.invalidHint')}
        extra={toList}
      />
    );
  } else if (failure === 'noAccess') {
    body = (
      <>
        <NoAccess />
        <div className="public-links">
          <Button type="link" onClick={() => void logout({ returnHere: true })} data-testid="logout">
            {t('layout:logout')}
          </Button>
        </div>
      </>
    );
  } else {
    body = (
      <div data-testid="partner-invitation">
        <p>{t('invitation.text')}</p>
        {confirm.error ? (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="partner-invitation-error"
            title={messageOf(confirm.error, errorText)}
          />
        ) : null}
        <Button
          type="primary"
          block
          loading={confirm.isPending}
          data-testid="partner-confirm-invitation"
          onClick={() => confirm.mutate(token)}
        >
          {t('invitation.confirm')}
        </Button>
        <div className="public-links">{toList}</div>
      </div>
    );
  }
  return (
    <PublicPage title={t('invitation.title')} width={520}>
      {body}
    </PublicPage>
  );
}
