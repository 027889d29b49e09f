import { useEffect, useMemo } from 'react';
import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { productsQuery } from '../api/catalogue';
import type { LabProduct } from '../api/types';
import { formatPrice } from '../lib/format';
import { searchable } from '../../../lib/selectSearch';
import { listLoading } from '../../../lib/listLoading';

/**
 * A product from the chosen laboratory's catalogue (optional: a clinic may still describe the work itself). Answers
 * the whole product, so the send dialog can take its work type and materials; a change of laboratory clears it.
 */
export function LabProductPicker({
  partnerCode,
  value,
  onChange,
  id,
}: {
  partnerCode: string | undefined;
  value: LabProduct | null;
  onChange: (product: LabProduct | null) => void;
  id?: string;
}) {
  const { t, i18n } = useTranslation('catalogue');
  const { t: tc } = useTranslation('cases');
  const products = useQuery({ ...productsQuery(partnerCode), enabled: Boolean(partnerCode) });
  const list = useMemo(() => (partnerCode ? (products.data?.list ?? []) : []), [partnerCode, products.data]);
  // A product of another laboratory, or one removed since, is not kept.
  useEffect(() => {
    if (value && products.isSuccess && !list.some((p) => p.productCode === value.productCode)) onChange(null);
  }, [value, list, products.isSuccess, onChange]);

  const label = (p: LabProduct) =>
    [
      p.name,
      tc(`treatment.${p.workType}`, { defaultValue: p.workType }),
      t('picker.days', { n: p.turnaroundDays }),
      formatPrice(p, i18n.language),
    ]
      .filter(Boolean)
      .join(' · ');

  return (
    <Select
      {...searchable}
      id={id}
      data-testid="send-product"
      allowClear
      disabled={!partnerCode}
      loading={listLoading(products)}
      placeholder={partnerCode && products.isSuccess && list.length === 0 ? t('picker.none') : t('picker.placeholder')}
      value={value?.productCode}
      onChange={(code?: string) => onChange(list.find((p) => p.productCode === code) ?? null)}
      options={list.map((p) => ({ value: p.productCode, label: label(p) }))}
    />
  );
}
