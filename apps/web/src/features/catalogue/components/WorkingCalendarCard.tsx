import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Checkbox, DatePicker, Form, Input, List, Select, Space, Typography } from 'antd';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { CLOSED_DATES_MAX, isoWeekday, WEEKDAYS } from '@portal/contracts';
import { formatDate } from '../../../lib/dates';
import { notify } from '../../../lib/notify';
import { calendarQuery } from '../api/catalogue';
import { useSaveCalendar } from '../api/useCatalogueMutations';
import type { LabCalendarResult } from '../api/types';
import { browserTimeZone, timeZones, weekdayName } from '../lib/format';
import { searchable } from '../../../lib/selectSearch';

interface Draft {
  workingWeekdays: number[];
  closedDates: { date: string; note: string | null }[];
  timeZone: string;
}

const same = (a: Draft, b: Draft) => JSON.stringify(a) === JSON.stringify(b);
/** The saved calendar as a draft; a laboratory that never saved one starts in the browser's timezone. */
const draftOf = (c: LabCalendarResult): Draft => ({
  workingWeekdays: [...c.workingWeekdays].sort((x, y) => x - y),
  closedDates: c.closedDates,
  timeZone: c.saved ? c.timeZone : browserTimeZone(),
});

/** The days the laboratory works: weekdays, closed dates (holidays) and the timezone they are counted in. */
export function WorkingCalendarCard({ editable }: { editable: boolean }) {
  const { t, i18n } = useTranslation('catalogue');
  const saved = useQuery(calendarQuery());
  const [draft, setDraft] = useState<Draft | null>(null);
  const [day, setDay] = useState<Dayjs | null>(null);
  const [note, setNote] = useState('');
  useEffect(() => {
    if (saved.data) setDraft(draftOf(saved.data));
  }, [saved.data]);
  const zones = useMemo(() => timeZones(draft?.timeZone ?? ''), [draft?.timeZone]);

  // The calendar takes the answer at once; the hook refreshes the catalogue.
  const save = useSaveCalendar({ onSuccess: () => notify.success(t('calendar.saved')) });

  if (!draft || !saved.data) return <Card title={t('calendar.title')} loading />;
  const dirty = !same(draft, draftOf(saved.data)) || !saved.data.saved;
  const addDay = () => {
    if (!day) return;
    const date = day.format('YYYY-MM-DD');
    const rest = draft.closedDates.filter((c) => c.date !== date);
    setDraft({
      ...draft,
      closedDates: [...rest, { date, note: note.trim() || null }].sort((a, b) => a.date.localeCompare(b.date)),
    });
    setDay(null);
    setNote('');
  };

  return (
    <Card
      title={t('calendar.title')}
      data-testid="lab-calendar"
      extra={
        editable ? (
          <Button
            type="primary"
            data-testid="calendar-save"
            disabled={!dirty || draft.workingWeekdays.length === 0}
            loading={save.isPending}
            onClick={() =>
              save.mutate({
                workingWeekdays: draft.workingWeekdays,
                timeZone: draft.timeZone,
                closedDates: draft.closedDates.map((c) => ({ date: c.date, ...(c.note ? { note: c.note } : {}) })),
              })
            }
          >
            {t('common:save')}
          </Button>
        ) : null
      }
    >
      <Typography.Paragraph type="secondary">{t('calendar.hint')}</Typography.Paragraph>
      {!saved.data.saved ? (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('calendar.notSaved')} />
      ) : null}
      <Form layout="vertical">
        <Form.Item
          label={t('calendar.weekdays')}
          required
          validateStatus={draft.workingWeekdays.length === 0 ? 'error' : undefined}
          help={draft.workingWeekdays.length === 0 ? t('calendar.weekdaysRequired') : undefined}
        >
          <Checkbox.Group
            data-testid="calendar-weekdays"
            disabled={!editable}
            value={draft.workingWeekdays}
            onChange={(v) => setDraft({ ...draft, workingWeekdays: [...v].sort((a, b) => a - b) })}
            options={WEEKDAYS.map((d) => ({ value: d, label: weekdayName(d, i18n.language) }))}
          />
        </Form.Item>
        <Form.Item label={t('calendar.timeZone')} htmlFor="calendar-time-zone">
          <Select
            {...searchable}
            id="calendar-time-zone"
            data-testid="calendar-time-zone"
            disabled={!editable}
            style={{ maxWidth: 360 }}
            value={draft.timeZone}
            onChange={(timeZone: string) => setDraft({ ...draft, timeZone })}
            options={zones.map((z) => ({ value: z, label: z }))}
          />
        </Form.Item>
        <Form.Item label={t('calendar.closedDates')}>
          {editable ? (
            <Space wrap style={{ marginBottom: 8 }}>
              <DatePicker
                value={day}
                onChange={setDay}
                aria-label={t('calendar.datePlaceholder')}
                placeholder={t('calendar.datePlaceholder')}
                data-testid="calendar-date"
              />
              <Input
                value={note}
                maxLength={80}
                onChange={(e) => setNote(e.target.value)}
                aria-label={t('calendar.notePlaceholder')}
                placeholder={t('calendar.notePlaceholder')}
                style={{ width: 200, maxWidth: '100%' }}
                data-testid="calendar-note"
              />
              <Button
                data-testid="calendar-add-date"
                disabled={!day || draft.closedDates.length >= CLOSED_DATES_MAX}
                onClick={addDay}
              >
                {t('calendar.addDate')}
              </Button>
            </Space>
          ) : null}
          <List
            size="small"
            bordered
            data-testid="calendar-closed-dates"
            locale={{ emptyText: t('calendar.noClosed') }}
            dataSource={draft.closedDates}
            renderItem={(c) => (
              <List.Item
                data-testid={`closed-${c.date}`}
                actions={
                  editable
                    ? [
                        <Button
                          key="remove"
                          type="text"
                          size="small"
                          icon={<DeleteOutlined aria-hidden />}
                          aria-label={t('calendar.removeDate', { date: formatDate(c.date) })}
                          onClick={() =>
                            setDraft({ ...draft, closedDates: draft.closedDates.filter((x) => x.date !== c.date) })
                          }
                        />,
                      ]
                    : []
                }
              >
                <span>
                  {formatDate(c.date)} · {weekdayName(isoWeekday(c.date), i18n.language, 'short')}
                  {c.note ? <Typography.Text type="secondary"> — {c.note}</Typography.Text> : null}
                </span>
              </List.Item>
            )}
          />
        </Form.Item>
      </Form>
    </Card>
  );
}
