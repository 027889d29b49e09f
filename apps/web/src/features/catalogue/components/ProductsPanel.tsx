import { useState } from 'react';
import { Button, Card, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CatalogueManage } from '@portal/contracts';
import { Access, useAccess } from '../../../components/Access';
import { notify } from '../../../lib/notify';
import { productsQuery } from '../api/catalogue';
import { useDeleteProduct } from '../api/useCatalogueMutations';
import type { LabProduct } from '../api/types';
import { formatPrice } from '../lib/format';
import { ProductFormModal } from './ProductFormModal';
import { WorkingCalendarCard } from './WorkingCalendarCard';

/** The laboratory's own space: its products, and the working calendar their delivery dates are counted in. */
export default function ProductsPanel() {
  const { t, i18n } = useTranslation('catalogue');
  const { t: tc } = useTranslation('cases');
  const { t: to } = useTranslation('orders');
  const can = useAccess();
  const editable = can(CatalogueManage);
  const products = useQuery(productsQuery());
  const [editing, setEditing] = useState<LabProduct | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const remove = useDeleteProduct({ onSuccess: () => notify.success(t('products.deleted')) });

  const columns: ColumnsType<LabProduct> = [
    { title: t('field.name'), key: 'name', render: (_, p) => <strong>{p.name}</strong> },
    {
      title: t('field.workType'),
      key: 'workType',
      render: (_, p) => tc(`treatment.${p.workType}`, { defaultValue: p.workType }),
    },
    {
      title: t('field.materials'),
      key: 'materials',
      render: (_, p) =>
        p.materials.length ? (
          <Space wrap size={[4, 4]}>
            {p.materials.map((m) => (
              <Tag key={m}>{m}</Tag>
            ))}
          </Space>
        ) : (
          '—'
        ),
    },
    {
      title: t('field.turnaroundDays'),
      key: 'turnaroundDays',
      align: 'right',
      render: (_, p) => <span data-testid={`product-days-${p.productCode}`}>{p.turnaroundDays}</span>,
    },
    {
      title: t('field.price'),
      key: 'price',
      align: 'right',
      render: (_, p) => formatPrice(p, i18n.language) || '—',
    },
    {
      title: t('field.requiredFields'),
      key: 'requiredFields',
      render: (_, p) => (p.requiredFields.length ? p.requiredFields.map((f) => to(`tooth.${f}`)).join(', ') : '—'),
    },
    ...(editable
      ? [
          {
            title: t('products.actions'),
            key: 'actions',
            fixed: 'right' as const,
            render: (_: unknown, p: LabProduct) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  data-testid={`product-edit-${p.productCode}`}
                  onClick={() => {
                    setEditing(p);
                    setFormOpen(true);
                  }}
                >
                  {t('products.edit')}
                </Button>
                <Popconfirm
                  title={t('products.deleteConfirm', { name: p.name })}
                  okText={t('products.delete')}
                  cancelText={t('common:cancel')}
                  okButtonProps={{ danger: true, 'data-testid': 'product-delete-confirm' }}
                  onConfirm={() => remove.mutateAsync(p.productCode)}
                >
                  <Button type="link" size="small" danger data-testid={`product-delete-${p.productCode}`}>
                    {t('products.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card
        title={t('products.title')}
        data-testid="products"
        extra={
          <Access permission={CatalogueManage}>
            <Button
              type="primary"
              icon={<PlusOutlined aria-hidden />}
              data-testid="product-add"
              onClick={() => {
                setEditing(null);
                setFormOpen(true);
              }}
            >
              {t('products.add')}
            </Button>
          </Access>
        }
      >
        <Typography.Paragraph type="secondary">{t('products.hint')}</Typography.Paragraph>
        <Table<LabProduct>
          rowKey="productCode"
          size="small"
          pagination={false}
          scroll={{ x: 'max-content' }}
          loading={products.isPending}
          columns={columns}
          dataSource={products.data?.list ?? []}
          locale={{ emptyText: t('products.empty') }}
          onRow={(p) => ({ 'data-testid': `product-row-${p.name}` }) as React.HTMLAttributes<HTMLElement>}
        />
      </Card>
      <WorkingCalendarCard editable={editable} />
      <ProductFormModal open={formOpen} product={editing} onClose={() => setFormOpen(false)} />
    </Space>
  );
}
