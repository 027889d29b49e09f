import { useEffect } from 'react';
import { Alert, Spin, Tag } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicPage } from '../../../components/PublicPage';
import { formatDate } from '../../../lib/dates';
import { useLocale } from '../../../lib/i18n';
import { hasToken } from '../../../lib/session';
import { whatsNewKeys } from '../api/keys';
import { getUpdateLog, getUpdateLogEntry, markRead } from '../api/updateLog';
import './whatsnew.css';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['whatsnew'];

/**
 * `/whatsnew/{id}`: one update log entry, readable without signing in, in the reader's language (or English), with
 * the other versions below. A signed-in reader's opening is recorded: the header's mark clears.
 */
export default function WhatsNewPage() {
  const { t } = useTranslation('whatsnew');
  const { lang } = useLocale();
  const qc = useQueryClient();
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const entry = useQuery({
    queryKey: whatsNewKeys.entry(id, lang),
    queryFn: () => getUpdateLogEntry(id),
    enabled: valid,
  });
  const list = useQuery({ queryKey: whatsNewKeys.list(lang), queryFn: () => getUpdateLog() });
  const signedIn = hasToken();

  useEffect(() => {
    if (!signedIn || !entry.data) return;
    void markRead(entry.data.id)
      .then((mark) => qc.setQueryData(whatsNewKeys.mark, mark))
      .catch(() => undefined);
  }, [signedIn, entry.data, qc]);

  const others = (list.data?.list ?? []).filter((e) => e.id !== id);
  return (
    <PublicPage title={t('title')} width={720}>
      {!valid || entry.isError ? (
        <Alert type="warning" showIcon title={t('notFound')} data-testid="whatsnew-not-found" />
      ) : entry.isPending ? (
        <Spin />
      ) : (
        <article data-testid="whatsnew-entry" lang={entry.data.language}>
          <h2 style={{ marginBottom: 4 }} data-testid="whatsnew-title">
            {entry.data.title}
          </h2>
          <div style={{ marginBottom: 16 }}>
            <Tag color="blue" data-testid="whatsnew-version">
              {t('version', { version: entry.data.version })}
            </Tag>
            <span>{formatDate(entry.data.releaseDate)}</span>
            {entry.data.language !== lang ? (
              <Tag style={{ marginInlineStart: 8 }} data-testid="whatsnew-fallback">
                {t('inEnglish')}
              </Tag>
            ) : null}
          </div>
          {/* Rendered from Markdown and sanitized by the server when the entry was saved. */}
          <div
            className="whatsnew-body"
            data-testid="whatsnew-body"
            dangerouslySetInnerHTML={{ __html: entry.data.html }}
          />
        </article>
      )}
      {others.length ? (
        <nav aria-label={t('otherVersions')} style={{ marginTop: 24 }}>
          <h3>{t('otherVersions')}</h3>
          <ul data-testid="whatsnew-others">
            {others.map((e) => (
              <li key={e.id}>
                <Link to={`/whatsnew/${e.id}`}>
                  {t('version', { version: e.version })} · {formatDate(e.releaseDate)} — {e.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <div className="public-links">
        <Link to="/" data-testid="whatsnew-back">
          {signedIn ? t('backToPortal') : t('toLogin')}
        </Link>
      </div>
    </PublicPage>
  );
}
