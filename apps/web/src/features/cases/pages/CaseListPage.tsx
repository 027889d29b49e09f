import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, Card, DatePicker, Input, Select, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import ExportOutlined from '@ant-design/icons/ExportOutlined';
import SearchOutlined from '@ant-design/icons/SearchOutlined';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { CASE_STATUSES, TREATMENTS } from '@portal/contracts';
import { getPrefs } from '../../../lib/prefs';
import { useListState, usePageInRange } from '../../../lib/listState';
import { pagedTable } from '../../../lib/pagedTable';
import { notify } from '../../../lib/notify';
import { listDentistsQuery } from '../../dentists';
import { listCasesQuery } from '../api/listCases';
import type { CaseSummary } from '../api/types';
import { useDeleteCases } from '../api/useCaseMutations';
import { CaseFormModal } from '../components/CaseFormModal';
import { CaseStatusTag, TreatmentTags } from '../components/CaseTags';
import { ExportDialog } from '../components/ExportDialog';
import { confirmDanger } from '../../../lib/confirm';
import { afterDialogClosed } from '../../../lib/afterDialog';
import {
  caseListCodec,
  columnSortOrder,
  sorterToSort,
  toCaseListQuery,
  type CaseFilters,
  type CaseListState,
} from '../lib/caseQuery';
import { caseDetailPath } from '../lib/paths';
import { SendToLabButton } from '../../orders';
import { ErasureCertificates } from '../components/ErasureCertificates';
import { formatDateTime } from '../../../lib/dates';
import { sizeText } from '../../../lib/sizes';
import { ScreenLink } from '../../../components/ScreenLink';
import { searchable } from '../../../lib/selectSearch';
import { Access } from '../../../components/Access';
import { listLoading } from '../../../lib/listLoading';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['cases'];

export default function CaseListPage() {
  const { t } = useTranslation('cases');
  const navigate = useNavigate();
  const codec = useMemo(() => caseListCodec(getPrefs().caseDateRangeDays), []);
  const [state, setState] = useListState(codec);
  const [keyword, setKeyword] = useState(state.filters.keyword ?? '');
  const [selected, setSelected] = useState<string[]>([]);
  const [formOpen, setFormOpen] = useState(false);
  const [exportOpen, setExportOpen] = useState(false);
  const query = useMemo(() => toCaseListQuery(state), [state]);
  const list = useQuery(listCasesQuery(query));
  usePageInRange(state, list, (pageNum) => setState((s) => ({ ...s, pageNum })));
  const dentists = useQuery(listDentistsQuery());

  const setFilters = useCallback(
    (patch: Partial<CaseFilters>) => setState((s) => ({ ...s, pageNum: 1, filters: { ...s.filters, ...patch } })),
    [setState],
  );

  // The search box applies itself after a pause in typing (Enter applies at once).
  useEffect(() => {
    const next = keyword.trim() || undefined;
    if (next === (state.filters.keyword?.trim() || undefined)) return;
    const timer = setTimeout(() => setFilters({ keyword: next }), 400);
    return () => clearTimeout(timer);
  }, [keyword, state.filters.keyword, setFilters]);

  // The hook refreshes the recycle bin as well as the lists, pages, dashboard counts and storage used.
  const remove = useDeleteCases({
    onSuccess: (_d, codes) => {
      notify.success(t('deleted', { count: codes.length }));
      setSelected([]);
    },
  });

  const confirmDelete = () =>
    confirmDanger({
      title: t('deleteConfirm', { count: selected.length }),
      content: t('deleteHint'),
      okText: t('delete'),
      cancelText: t('common:cancel'),
      okTestId: 'case-delete-confirm',
      onOk: () => remove.mutateAsync(selected),
    });

  const columns: ColumnsType<CaseSummary> = [
    {
      title: t('field.name'),
      key: 'name',
      dataIndex: 'name',
      sorter: true,
      sortOrder: columnSortOrder(state, 'name'),
      render: (v: string, r) => (
        <ScreenLink to={caseDetailPath(r.caseCode)} testId={`case-link-${r.caseCode}`}>
          {v}
        </ScreenLink>
      ),
    },
    {
      title: t('field.patientName'),
      key: 'patientName',
      dataIndex: 'patientName',
      sorter: true,
      sortOrder: columnSortOrder(state, 'patientName'),
    },
    { title: t('field.patientId'), key: 'patientId', dataIndex: 'patientId', render: (v: string | null) => v ?? '' },
    { title: t('field.age'), key: 'age', dataIndex: 'age', render: (v: number | null) => (v == null ? '' : v) },
    {
      title: t('field.scanDate'),
      key: 'scanDate',
      dataIndex: 'scanDate',
      sorter: true,
      sortOrder: columnSortOrder(state, 'scanDate'),
      render: (v: string | null) => formatDateTime(v),
    },
    { title: t('field.dentist'), key: 'dentist', render: (_, r) => r.dentist?.name ?? '' },
    { title: t('field.treatments'), key: 'treatments', render: (_, r) => <TreatmentTags treatments={r.treatments} /> },
    { title: t('field.status'), key: 'status', render: (_, r) => <CaseStatusTag status={r.status} /> },
    {
      title: t('field.files'),
      key: 'files',
      render: (_, r) => (
        <span>
          {r.fileCount} · {sizeText(r.size)}
        </span>
      ),
    },
    {
      title: t('field.createdAt'),
      key: 'createdAt',
      dataIndex: 'createdAt',
      sorter: true,
      sortOrder: columnSortOrder(state, 'createdAt'),
      render: (v: string) => formatDateTime(v),
    },
  ];

  return (
    <Card
      title={t('title')}
      extra={
        <Space wrap>
          <Access permission="patient:erase">
            <ErasureCertificates />
          </Access>
          <Access permission="case:edit">
            <Button
              type="primary"
              icon={<PlusOutlined aria-hidden />}
              data-testid="case-new"
              onClick={() => setFormOpen(true)}
            >
              {t('new')}
            </Button>
          </Access>
        </Space>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <DatePicker.RangePicker
          data-testid="case-filter-range"
          aria-label={t('filter.range')}
          value={state.filters.range}
          onChange={(v) => setFilters({ range: v && v[0] && v[1] ? ([v[0], v[1]] as [Dayjs, Dayjs]) : null })}
          allowClear
        />
        <Select
          {...searchable}
          data-testid="case-filter-status"
          aria-label={t('filter.status')}
          allowClear
          placeholder={t('filter.status')}
          style={{ minWidth: 160 }}
          value={state.filters.status}
          onChange={(v?: string) => setFilters({ status: v })}
          options={CASE_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
        />
        <Select
          {...searchable}
          data-testid="case-filter-treatment"
          aria-label={t('filter.treatment')}
          allowClear
          placeholder={t('filter.treatment')}
          style={{ minWidth: 160 }}
          value={state.filters.treatment}
          onChange={(v?: string) => setFilters({ treatment: v })}
          options={TREATMENTS.map((s) => ({ value: s, label: t(`treatment.${s}`) }))}
        />
        <Select
          {...searchable}
          data-testid="case-filter-dentist"
          aria-label={t('filter.dentist')}
          allowClear
          placeholder={t('filter.dentist')}
          style={{ minWidth: 160 }}
          value={state.filters.dentistId}
          onChange={(v?: number) => setFilters({ dentistId: v })}
          options={(dentists.data?.list ?? []).map((d) => ({ value: d.id, label: d.name }))}
        />
        <Input
          data-testid="case-search"
          aria-label={t('filter.search')}
          allowClear
          prefix={<SearchOutlined aria-hidden />}
          placeholder={t('filter.search')}
          style={{ width: 260 }}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onPressEnter={() => setFilters({ keyword })}
        />
      </Space>
      <Space style={{ marginBottom: 16 }}>
        <Button
          icon={<ExportOutlined aria-hidden />}
          data-testid="case-batch-export"
          disabled={selected.length === 0}
          onClick={() => setExportOpen(true)}
        >
          {t('export.button')}
        </Button>
        <Access permission="case:edit">
          <Button
            danger
            icon={<DeleteOutlined aria-hidden />}
            data-testid="case-batch-delete"
            disabled={selected.length === 0}
            loading={remove.isPending}
            onClick={confirmDelete}
          >
            {t('delete')}
          </Button>
        </Access>
        <SendToLabButton
          caseCodes={selected}
          treatments={(list.data?.list ?? []).filter((c) => selected.includes(c.caseCode)).flatMap((c) => c.treatments)}
          cases={(list.data?.list ?? []).filter((c) => selected.includes(c.caseCode))}
          onSent={() => setSelected([])}
        />
        {selected.length ? (
          <Typography.Text type="secondary">{t('selected', { count: selected.length })}</Typography.Text>
        ) : null}
      </Space>
      <Table<CaseSummary>
        data-testid="case-list"
        rowKey="caseCode"
        size="middle"
        scroll={{ x: 'max-content' }}
        loading={listLoading(list)}
        columns={columns}
        dataSource={list.data?.list ?? []}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys.map(String)),
          preserveSelectedRowKeys: true,
        }}
        onRow={(r) =>
          ({ 'data-testid': `case-row-${r.caseCode}`, 'data-name': r.name }) as React.HTMLAttributes<HTMLElement>
        }
        {...pagedTable<CaseSummary, CaseListState>({
          state,
          setState,
          total: list.data?.total ?? 0,
          showTotal: (total) => t('total', { count: total }),
          sortOf: (s) => sorterToSort(s?.columnKey, s?.order),
        })}
      />
      <CaseFormModal
        open={formOpen}
        onClose={() => setFormOpen(false)}
        onSaved={(c) => {
          setFormOpen(false);
          notify.success(t('created'));
          afterDialogClosed(() => void navigate(caseDetailPath(c.caseCode)));
        }}
      />
      <ExportDialog open={exportOpen} caseCodes={selected} onClose={() => setExportOpen(false)} />
    </Card>
  );
}
