import { useRef, useState } from 'react';
import { Alert, Button, Card, Space, Table, Typography } from 'antd';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import type { CatalogImportResult } from '../api/importCatalog';
import { useImportCatalog } from '../api/useDeviceMutations';

const ACCEPT = '.xlsx,.csv';
type RowError = CatalogImportResult['errors'][number];

/** OEM administrators: import a product catalogue (xlsx/csv). All rows or none. */
export function CatalogImportCard() {
  const { t } = useTranslation('devices');
  const inputRef = useRef<HTMLInputElement>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [result, setResult] = useState<CatalogImportResult | null>(null);

  // Once every row went in, the hook refreshes the scanner lists.
  const upload = useImportCatalog({
    onMutate: () => setResult(null),
    onSuccess: (res) => {
      setResult(res);
      if (res.errors.length === 0) {
        notify.success(t('catalog.imported', { n: res.imported }));
      }
    },
    // A failed import is shown by lib/http, like any other call.
  });

  return (
    <Card title={t('catalog.title')} data-testid="catalog-import">
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('catalog.help')}
          <br />
          <Typography.Text code>model, serialNumber, activationCode, warrantyDate, limitType</Typography.Text>
          <br />
          {t('catalog.helpOptional')}
        </Typography.Paragraph>
        <input
          ref={inputRef}
          type="file"
          accept={ACCEPT}
          data-testid="catalog-file"
          style={{ display: 'none' }}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (!file) return;
            setFileName(file.name);
            upload.mutate(file);
          }}
        />
        <Space wrap>
          <Button
            icon={<UploadOutlined aria-hidden />}
            loading={upload.isPending}
            data-testid="catalog-choose"
            onClick={() => inputRef.current?.click()}
          >
            {t('catalog.choose')}
          </Button>
          {fileName ? <Typography.Text type="secondary">{fileName}</Typography.Text> : null}
        </Space>
        {result && result.errors.length === 0 ? (
          <Alert
            type="success"
            showIcon
            data-testid="catalog-result"
            title={t('catalog.imported', { n: result.imported })}
          />
        ) : null}
        {result && result.errors.length > 0 ? (
          <>
            <Alert
              type="error"
              showIcon
              data-testid="catalog-nothing-imported"
              title={t('catalog.nothingImported')}
              description={t('catalog.fixAndRetry')}
            />
            <div data-testid="catalog-errors">
              <Table<RowError>
                size="small"
                rowKey={(e) => `${e.row}:${e.reason}`}
                pagination={result.errors.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
                dataSource={result.errors}
                onRow={(e) => ({ 'data-testid': `catalog-error-${e.row}` }) as React.HTMLAttributes<HTMLElement>}
                columns={[
                  {
                    title: t('catalog.row'),
                    dataIndex: 'row',
                    width: 90,
                    render: (v: number) => (v > 0 ? v : t('catalog.wholeFile')),
                  },
                  { title: t('catalog.reason'), dataIndex: 'reason' },
                ]}
              />
            </div>
          </>
        ) : null}
      </Space>
    </Card>
  );
}
