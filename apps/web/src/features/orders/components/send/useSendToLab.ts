import { useEffect, useMemo, useRef, useState } from 'react';
import { Form } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import {
  missingPrescriptionFields,
  normalizeToothNumbering,
  prescriptionIssues,
  toothLabel,
  TREATMENTS,
  type Treatment,
} from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../../lib/http';
import { useSession } from '../../../../lib/session';
import { afterDialogClosed } from '../../../../lib/afterDialog';
import { messageOf } from '../../../../lib/errors';
import { acceptedPartnersQuery } from '../../api/acceptedPartners';
import { requiredFieldsQuery } from '../../api/requiredFields';
import type { CreateOrderBody, OrderDetail, PrescriptionField, ToothItem } from '../../api/types';
import { useCreateOrder } from '../../api/useOrderMutations';
import { defaultOrderType } from '../../lib/orderRules';
import { cleanTooth, teethFromCase } from '../../lib/teeth';
import { applyProduct, withProductRules, type LabProduct } from '../../../catalogue';

export interface SendFormValues {
  partnerCode?: string;
  orderType?: string;
  workTypes?: Treatment[];
  requestedDeliveryDate?: Dayjs | null;
  memo?: string;
  sharePatientName: boolean;
}

/** The work types the cases' treatments name, once each ('None' names none). */
export function suggestedWorkTypes(treatments: readonly string[]): Treatment[] {
  return TREATMENTS.filter((w) => w !== 'None' && treatments.includes(w));
}

export interface SendToLabOptions {
  open: boolean;
  caseCodes: string[];
  /** The cases' treatments, offered as the order's work types. */
  treatments?: readonly string[];
  /** The cases' names and treatments, read for the teeth they name ("Bridge 34-36"). */
  cases?: readonly { name: string; treatments: readonly string[] }[];
  onClose: () => void;
  onSent?: (orders: OrderDetail[]) => void;
}

/**
 * The state and the submit of "Send to lab": the form, the tooth items, the laboratory's required fields, the
 * check before sending and the send itself. The form and the result view only render what this holds; a product
 * picker or a delivery-date estimate reads `partnerCode`/`workTypes` from here and writes through `form`.
 */
export function useSendToLab({ open, caseCodes, treatments = [], cases = [], onClose, onSent }: SendToLabOptions) {
  const { t } = useTranslation('teeth');
  const { user } = useSession();
  const system = normalizeToothNumbering(user?.toothNumberingSystem);
  const [form] = Form.useForm<SendFormValues>();
  const [items, setItems] = useState<ToothItem[]>([]);
  const [tried, setTried] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [sent, setSent] = useState<OrderDetail[] | null>(null);
  const missingRef = useRef<HTMLDivElement>(null);
  // The product chosen from the laboratory's catalogue, if any.
  const [product, setProduct] = useState<LabProduct | null>(null);

  useEffect(() => {
    if (!open) return;
    setItems(teethFromCase(cases, system));
    setProduct(null);
    setTried(false);
    setServerError(null);
    form.setFieldsValue({ workTypes: suggestedWorkTypes(treatments), orderType: defaultOrderType(treatments) });
    // Suggested on opening only: what the user then picks stays theirs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const partnerCode = Form.useWatch('partnerCode', form);
  const workTypes = Form.useWatch('workTypes', form);
  const partners = useQuery({ ...acceptedPartnersQuery(), enabled: open });
  // The only accepted laboratory is the one the case goes to: chosen for the user, who may still change it.
  const onlyLab = partners.data?.length === 1 ? partners.data[0]!.partnerCode : null;
  useEffect(() => {
    if (open && onlyLab && !form.getFieldValue('partnerCode')) form.setFieldsValue({ partnerCode: onlyLab });
  }, [open, onlyLab, form]);
  const rules = useQuery({ ...requiredFieldsQuery(partnerCode), enabled: open && Boolean(partnerCode) });
  // The chosen product's required fields join the laboratory's rules for its work type.
  const labRules = useMemo(
    () => withProductRules(partnerCode ? (rules.data?.rules ?? []) : [], product),
    [partnerCode, rules.data, product],
  );
  const requestedDate = Form.useWatch('requestedDeliveryDate', form)?.format('YYYY-MM-DD');
  /** A product sets its work type and offers its materials for each tooth. */
  const chooseProduct = (next: LabProduct | null) => {
    setProduct(next);
    const applied = applyProduct(next, (form.getFieldValue('workTypes') as Treatment[] | undefined) ?? [], items);
    form.setFieldValue('workTypes', applied.workTypes);
    setItems(applied.teeth);
  };

  /** The fields the laboratory requires for the work types chosen so far. */
  const required = useMemo(() => {
    const set = new Set<PrescriptionField>();
    for (const r of labRules) if (workTypes?.includes(r.workType)) r.fields.forEach((f) => set.add(f));
    return set;
  }, [labRules, workTypes]);
  const teeth = useMemo(() => items.map(cleanTooth), [items]);
  const missing = tried ? missingPrescriptionFields(labRules, { workTypes: workTypes ?? [], teeth }) : [];

  // The hook refreshes the orders, their cases and the dashboard.
  const create = useCreateOrder({
    onSuccess: (res) => {
      onClose();
      onSent?.(res.list);
      // The result dialog opens once this one has left the browser history (see useBackClose).
      afterDialogClosed(() => setSent(res.list));
    },
    // 2036 partnership, 2037 required fields, 2038/2039 scanner limits: the server's message names what to fix.
    onError: (err) => setServerError((err as { msg?: string }).msg || messageOf(err, errorText)),
  });

  const submit = async () => {
    setServerError(null);
    let v: SendFormValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setTried(true);
    // A bridge the laboratory could not make is named before the server would refuse it.
    const [issue] = prescriptionIssues(teeth);
    if (issue) {
      setServerError(t('issue', { tooth: toothLabel(teeth[issue.index]!.number, system) }));
      return;
    }
    if (missingPrescriptionFields(labRules, { workTypes: v.workTypes ?? [], teeth }).length > 0) {
      // The list of what is missing renders below the form: bring it into view.
      requestAnimationFrame(() => missingRef.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' }));
      return;
    }
    create.mutate({
      caseCodes,
      partnerCode: v.partnerCode!,
      orderType: v.orderType!,
      workTypes: v.workTypes ?? [],
      // Shades are picked from the guides' lists; the server checks them again.
      teeth: teeth as CreateOrderBody['teeth'],
      ...(v.requestedDeliveryDate ? { requestedDeliveryDate: v.requestedDeliveryDate.format('YYYY-MM-DD') } : {}),
      ...(v.memo?.trim() ? { memo: v.memo.trim() } : {}),
      sharePatientName: v.sharePatientName,
      ...(product ? { productCode: product.productCode } : {}),
    });
  };

  const labs = partners.data ?? [];
  const labName = labs.find((p) => p.partnerCode === partnerCode)?.name ?? rules.data?.labName ?? '';

  return {
    form,
    system,
    items,
    setItems,
    tried,
    partnerCode,
    workTypes: workTypes ?? [],
    labs,
    labsLoading: partners.isPending,
    noLabs: partners.isSuccess && labs.length === 0,
    labName,
    labRules,
    product,
    chooseProduct,
    requestedDate,
    /** Until the laboratory's rules are known, the check before sending could not be made. */
    rulesPending: Boolean(partnerCode) && rules.isFetching,
    required,
    missing,
    missingRef,
    serverError,
    sending: create.isPending,
    submit,
    sent,
    closeSent: () => setSent(null),
  };
}

export type SendToLab = ReturnType<typeof useSendToLab>;
