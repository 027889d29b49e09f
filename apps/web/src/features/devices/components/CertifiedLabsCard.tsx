import { useState } from 'react';
import { Button, Card, Empty, Input, Space, Spin, Tag, Typography } from 'antd';
import EditOutlined from '@ant-design/icons/EditOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FIELD_MAX } from '@portal/contracts';
import { notify } from '../../../lib/notify';
import { certifiedLabsQuery } from '../api/certifiedLabs';
import { useSaveCertifiedLabs } from '../api/useDeviceMutations';
import { listLoading } from '../../../lib/listLoading';

/** At most this many codes (contracts: SaveCertifiedLabsBody). */
export const MAX_CERTIFIED = 1000;

/** Codes typed or pasted in one go: split on commas, semicolons and white space; empty and repeated ones dropped. */
export function parseCodes(text: string, existing: readonly string[] = []): string[] {
  const out = [...existing];
  for (const raw of text.split(/[\s,;]+/)) {
    const code = raw.trim();
    if (code && !out.includes(code)) out.push(code);
  }
  return out;
}

/**
 * OEM administrators: the laboratories certified for the OEM's scanners with limit type 2. The list
 * is edited as laboratory organization codes (typed or pasted, shown as tags) and replaced on save.
 */
export function CertifiedLabsCard({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation('devices');
  const list = useQuery(certifiedLabsQuery());
  const [editing, setEditing] = useState(false);
  const [codes, setCodes] = useState<string[]>([]);
  const [input, setInput] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);

  const save = useSaveCertifiedLabs({
    onSuccess: () => {
      notify.success(t('certified.saved'));
      setEditing(false);
    },
    // lib/http shows the server's message (2041 names the code that is not a laboratory's); the edit stays open.
  });

  const names = new Map((list.data?.list ?? []).map((l) => [l.code, l.name]));
  const startEdit = () => {
    setCodes((list.data?.list ?? []).map((l) => l.code));
    setInput('');
    setInputError(null);
    setEditing(true);
  };
  /** Adds what is typed in the box; null when it is not acceptable (the error shows under the box). */
  const add = (): string[] | null => {
    const next = parseCodes(input, codes);
    if (next.some((c) => c.length > FIELD_MAX.code)) {
      setInputError(t('common:tooLong', { n: FIELD_MAX.code }));
      return null;
    }
    if (next.length > MAX_CERTIFIED) {
      setInputError(t('certified.tooMany', { n: MAX_CERTIFIED }));
      return null;
    }
    setCodes(next);
    setInput('');
    setInputError(null);
    return next;
  };

  return (
    <Card
      title={t('certified.title')}
      data-testid="certified-labs"
      extra={
        canEdit && !editing ? (
          <Button
            icon={<EditOutlined aria-hidden />}
            onClick={startEdit}
            disabled={!list.data}
            data-testid="certified-labs-edit"
          >
            {t('certified.edit')}
          </Button>
        ) : null
      }
    >
      <Typography.Paragraph type="secondary">{t('certified.help')}</Typography.Paragraph>
      {editing ? (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Space.Compact style={{ width: '100%', maxWidth: 520 }}>
            <Input
              value={input}
              placeholder={t('certified.placeholder')}
              status={inputError ? 'error' : undefined}
              onChange={(e) => setInput(e.target.value)}
              onPressEnter={(e) => {
                e.preventDefault();
                void add();
              }}
              data-testid="certified-labs-input"
            />
            <Button onClick={() => void add()} disabled={!input.trim()} data-testid="certified-labs-add">
              {t('certified.add')}
            </Button>
          </Space.Compact>
          {inputError ? <Typography.Text type="danger">{inputError}</Typography.Text> : null}
          <div data-testid="certified-labs-codes">
            {codes.length === 0 ? (
              <Typography.Text type="secondary">{t('certified.none')}</Typography.Text>
            ) : (
              <Space size={[4, 8]} wrap>
                {codes.map((code) => (
                  <Tag
                    key={code}
                    closable
                    data-testid={`certified-lab-${code}`}
                    onClose={(e) => {
                      e.preventDefault();
                      setCodes(codes.filter((c) => c !== code));
                    }}
                  >
                    {names.get(code) ? `${names.get(code)} (${code})` : code}
                  </Tag>
                ))}
              </Space>
            )}
          </div>
          <Space>
            <Button
              type="primary"
              loading={save.isPending}
              onClick={() => {
                // A code still in the box counts too.
                const next = add();
                if (next) save.mutate(next);
              }}
              data-testid="certified-labs-save"
            >
              {t('common:save')}
            </Button>
            <Button onClick={() => setEditing(false)} disabled={save.isPending} data-testid="certified-labs-cancel">
              {t('common:cancel')}
            </Button>
          </Space>
        </Space>
      ) : (
        <Spin spinning={listLoading(list)}>
          {list.data && list.data.list.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('certified.none')} />
          ) : (
            <Space size={[4, 8]} wrap>
              {(list.data?.list ?? []).map((l) => (
                <Tag key={l.code} color="blue" data-testid={`certified-lab-${l.code}`}>
                  {l.name} ({l.code})
                </Tag>
              ))}
            </Space>
          )}
        </Spin>
      )}
    </Card>
  );
}
