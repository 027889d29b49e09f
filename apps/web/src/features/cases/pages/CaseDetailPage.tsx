import { useMemo, useState } from 'react';
import {
  Button,
  Card,
  Descriptions,
  Empty,
  List,
  Popconfirm,
  Result,
  Space,
  Spin,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import EditOutlined from '@ant-design/icons/EditOutlined';
import ExportOutlined from '@ant-design/icons/ExportOutlined';
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import EyeOutlined from '@ant-design/icons/EyeOutlined';
import ArrowLeftOutlined from '@ant-design/icons/ArrowLeftOutlined';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FILE_KINDS } from '@portal/contracts';
import { Access } from '../../../components/Access';
import { notify } from '../../../lib/notify';
import { useBackClose } from '../../../lib/useBackClose';
import { caseDetailQuery } from '../api/caseDetail';
import { downloadGrant } from '../api/downloadGrant';
import type { CaseDetail, CaseFile } from '../api/types';
import { useCaseFilesChanged, useDeleteFile } from '../api/useCaseMutations';
import { CaseFormModal } from '../components/CaseFormModal';
import { CaseStatusTag, TreatmentTags } from '../components/CaseTags';
import { CaseUploader } from '../components/CaseUploader';
import { useCaseViewerTools } from '../components/useCaseViewerTools';
import { ExportDialog } from '../components/ExportDialog';
import { FileViewerModal, isViewable } from '../components/FileViewer';
import { ageInYears } from '../lib/age';
import { uploadIntoCase } from '../lib/caseUpload';
import type { UploadFailure } from '../lib/upload';
import { CASE_LIST_PATH } from '../lib/paths';
import { SendToLabButton } from '../../orders';
import { PatientDataActions } from '../components/PatientDataActions';
import { SharesCard } from '../../shares';
import { CaseReportsCard } from '../../reports';
import { downloadUrl } from '../../../lib/download';
import { formatDate, formatDateTime } from '../../../lib/dates';
import { sizeText } from '../../../lib/sizes';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['cases'];

/** The message of §4 a file shows while it is not plainly available. */
function fileMessageKey(f: CaseFile): string | null {
  if (f.uploadTag === 'uploading') return 'file.uploading';
  if (f.uploadTag === 'uploadFail') return 'uploadTag.uploadFail';
  if (f.kind === 'model' && f.viewerStatus === 'pending') return 'file.calculating';
  // A model whose size fits no unit is still shown (from the original), but not to scale.
  if (f.kind === 'model' && f.viewerStatus === 'failed')
    return f.unit === 'unknown' ? 'file.unitUnknown' : 'file.processingFailed';
  return null;
}

async function download(f: CaseFile, invalidText: string) {
  try {
    downloadUrl((await downloadGrant(f.fileCode)).url, f.name);
  } catch {
    notify.error(invalidText);
  }
}

export default function CaseDetailPage() {
  const { t } = useTranslation('cases');
  const { id = '' } = useParams();
  const detail = useQuery({ ...caseDetailQuery(id), enabled: id !== '' });
  const [editing, setEditing] = useState(false);
  // The form edits the case as it was when opened: the page's polling must not reset what is being typed.
  const [editCopy, setEditCopy] = useState<CaseDetail | null>(null);
  const [exporting, setExporting] = useState(false);
  const [viewing, setViewing] = useState<CaseFile[] | null>(null);
  useBackClose(viewing !== null, () => setViewing(null));

  const removeFile = useDeleteFile({ onSuccess: () => notify.success(t('file.deleted')) });
  const filesChanged = useCaseFilesChanged();

  // A 3D screenshot kept as an image of the case, as if uploaded: its file list, storage and the dashboard refresh.
  const saveScreenshot = async (png: File) => {
    try {
      await uploadIntoCase(id, png);
      notify.success(t('file.screenshotSaved', { name: png.name }));
    } catch (failure) {
      const f = failure as UploadFailure;
      notify.error('msg' in f ? f.msg : t(f.key));
    } finally {
      filesChanged();
    }
  };

  const viewerTools = useCaseViewerTools(id, saveScreenshot);

  const c = detail.data;
  const groups = useMemo(
    () =>
      FILE_KINDS.map((kind) => ({ kind, files: (c?.files ?? []).filter((f) => f.kind === kind) })).filter(
        (g) => g.files.length > 0,
      ),
    [c],
  );

  if (detail.isPending) return <Spin data-testid="case-detail-loading" />;
  if (!c) {
    return (
      <Result
        status="warning"
        title={t('notFound')}
        extra={
          <Link to={CASE_LIST_PATH}>
            <Button>{t('backToList')}</Button>
          </Link>
        }
      />
    );
  }
  const age = c.age ?? ageInYears(c.birthDate);

  return (
    <Space
      orientation="vertical"
      size={16}
      style={{ width: '100%' }}
      data-testid="case-detail"
      data-case-code={c.caseCode}
    >
      <Card
        title={
          <Space>
            <Link to={CASE_LIST_PATH} aria-label={t('backToList')}>
              <ArrowLeftOutlined aria-hidden />
            </Link>
            <span data-testid="case-detail-name">{c.name}</span>
            <CaseStatusTag status={c.status} />
            {c.legalHold && (
              <Tooltip title={c.legalHold.reason}>
                <Tag color="gold" data-testid="case-legal-hold">
                  {t('erasure.held')}
                </Tag>
              </Tooltip>
            )}
          </Space>
        }
        extra={
          <Space wrap>
            <SendToLabButton caseCodes={[c.caseCode]} treatments={c.treatments} cases={[c]} />
            <Button icon={<ExportOutlined aria-hidden />} data-testid="case-export" onClick={() => setExporting(true)}>
              {t('export.button')}
            </Button>
            <Access permission="patient:erase">
              <PatientDataActions c={c} />
            </Access>
            <Access permission="case:edit">
              <Button
                type="primary"
                icon={<EditOutlined aria-hidden />}
                data-testid="case-edit"
                onClick={() => {
                  setEditCopy(c);
                  setEditing(true);
                }}
              >
                {t('edit')}
              </Button>
            </Access>
          </Space>
        }
      >
        <Descriptions column={{ xs: 1, sm: 2, lg: 3 }} size="small">
          <Descriptions.Item label={t('field.patientName')}>
            <span data-testid="case-detail-patientName">{c.patientName}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('field.patientId')}>{c.patientId ?? ''}</Descriptions.Item>
          <Descriptions.Item label={t('field.birthDate')}>
            <span data-testid="case-detail-birthDate">
              {c.birthDate
                ? `${formatDate(c.birthDate)}${age != null ? ` (${t('ageYears', { count: age })})` : ''}`
                : ''}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('field.scanDate')}>{formatDateTime(c.scanDate)}</Descriptions.Item>
          <Descriptions.Item label={t('field.dentist')}>{c.dentist?.name ?? ''}</Descriptions.Item>
          <Descriptions.Item label={t('field.status')}>
            <CaseStatusTag status={c.status} />
          </Descriptions.Item>
          <Descriptions.Item label={t('field.treatments')} span={3}>
            <TreatmentTags treatments={c.treatments} />
          </Descriptions.Item>
          <Descriptions.Item label={t('field.memo')} span={3}>
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>
              {c.memo ?? ''}
            </Typography.Paragraph>
          </Descriptions.Item>
        </Descriptions>
      </Card>

      <Access permission="report:view">
        <CaseReportsCard caseCode={c.caseCode} />
      </Access>

      <Access permission="case:edit">
        <Card title={t('upload.title')}>
          <CaseUploader caseCode={c.caseCode} />
        </Card>
      </Access>

      <Card title={t('file.title', { count: c.files.length })} data-testid="case-files">
        {groups.length === 0 ? <Empty description={t('file.none')} /> : null}
        {groups.map(({ kind, files }) => {
          const viewableModels = kind === 'model' ? files.filter(isViewable) : [];
          return (
            <div key={kind} data-testid={`file-group-${kind}`} style={{ marginBottom: 16 }}>
              <Space style={{ marginBottom: 8 }}>
                <Typography.Title level={5} style={{ margin: 0 }}>
                  {t(`kind.${kind}`)} ({files.length})
                </Typography.Title>
                {viewableModels.length > 1 ? (
                  <Button
                    size="small"
                    icon={<EyeOutlined aria-hidden />}
                    data-testid="file-view-models"
                    onClick={() => setViewing(viewableModels)}
                  >
                    {t('file.viewAllModels')}
                  </Button>
                ) : null}
              </Space>
              <List
                size="small"
                bordered
                dataSource={files}
                renderItem={(f) => {
                  const msg = fileMessageKey(f);
                  return (
                    <List.Item
                      data-testid={`file-item-${f.fileCode}`}
                      data-upload-tag={f.uploadTag}
                      data-viewer-status={f.viewerStatus}
                      actions={[
                        <Button
                          key="view"
                          size="small"
                          icon={<EyeOutlined aria-hidden />}
                          disabled={!isViewable(f)}
                          data-testid={`file-open-${f.fileCode}`}
                          onClick={() => setViewing([f])}
                        >
                          {t('file.view')}
                        </Button>,
                        <Button
                          key="download"
                          size="small"
                          icon={<DownloadOutlined aria-hidden />}
                          disabled={f.uploadTag === 'uploading' || f.uploadTag === 'uploadFail'}
                          data-testid={`file-download-${f.fileCode}`}
                          onClick={() => void download(f, t('file.invalidLink'))}
                        >
                          {t('file.download')}
                        </Button>,
                        <Access key="delete" permission="case:edit">
                          <Popconfirm
                            title={t('file.deleteConfirm', { name: f.name })}
                            okText={t('delete')}
                            cancelText={t('common:cancel')}
                            okButtonProps={{ danger: true, 'data-testid': 'file-delete-confirm' }}
                            onConfirm={() => removeFile.mutateAsync(f.fileCode)}
                          >
                            <Button
                              size="small"
                              danger
                              icon={<DeleteOutlined aria-hidden />}
                              data-testid={`file-delete-${f.fileCode}`}
                              aria-label={t('delete')}
                            />
                          </Popconfirm>
                        </Access>,
                      ]}
                    >
                      <Space wrap>
                        <Typography.Text>{f.name}</Typography.Text>
                        <Tag>{f.format.toUpperCase()}</Tag>
                        {f.jaw ? <Tag color="blue">{t(`jaw.${f.jaw}`)}</Tag> : null}
                        <Typography.Text type="secondary">{sizeText(f.size)}</Typography.Text>
                        {msg ? (
                          <Typography.Text
                            type={
                              msg === 'file.processingFailed' || msg === 'uploadTag.uploadFail'
                                ? 'danger'
                                : msg === 'file.unitUnknown'
                                  ? 'warning'
                                  : 'secondary'
                            }
                            data-testid="file-message"
                          >
                            {t(msg)}
                          </Typography.Text>
                        ) : null}
                      </Space>
                    </List.Item>
                  );
                }}
              />
            </div>
          );
        })}
      </Card>

      <SharesCard resourceType="case" resourceCode={c.caseCode} />

      <FileViewerModal
        files={viewing}
        onClose={() => setViewing(null)}
        allModelsTitle={t('file.viewAllModels')}
        testId="file-viewer"
        tools={viewerTools}
      />
      <CaseFormModal
        open={editing}
        initial={editCopy ?? c}
        onClose={() => setEditing(false)}
        onSaved={() => {
          setEditing(false);
          notify.success(t('common:saved'));
        }}
      />
      <ExportDialog open={exporting} caseCodes={[c.caseCode]} onClose={() => setExporting(false)} />
    </Space>
  );
}
