import {
  canOrder,
  canRemake,
  CASE_FOLLOWS_RANK,
  dateInTimeZone,
  CASE_STATUS_BY_ORDER,
  missingPrescriptionFields,
  prescriptionIssues,
  MSG_TYPES,
  ORDER_TRANSITIONS,
  PartnerStatus,
  REMAKE_SETTLED_AGAIN,
  REMAKE_TRANSITION,
  type CreateOrderBody,
  type OrderActionBody,
  type OrderDetail,
  type OrderSummary,
  type ToothStageBody,
  type RemakeOrderBody,
  type PrescriptionField,
  type RequiredFieldRule,
  type ToothItem,
} from '@portal/contracts';
import type { AuthContext } from '../../platform/auth.js';
import { isoText, type Db, type Queryable } from '../../platform/db.js';
import { AppError, fail, invalidField } from '../../platform/errors.js';
import { newCode, newId } from '../../platform/crypto.js';
import { t } from '../../platform/i18n.js';
import { FilesService } from '../files/files.service.js';
import { CasesService, toCaseFile } from '../cases/cases.service.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import { ScorecardsService } from '../scorecards/scorecards.service.js';
import { EventsService } from '../events/events.service.js';
import { labHasScans, threadIsOpen } from './lab-scans.js';
import { toAttachment, type OrderAttachments } from './order-attachments.js';
import type { OrderNotifier } from './order-notifier.js';
import {
  attachmentsRepository,
  ordersRepository,
  type OrderFilter,
  type OrderRow,
  type Side,
} from './orders.repository.js';
import { sideOf } from './side.js';
import type { AccessLog, Reader } from '../audit/access-log.js';

export { sideOf };

/** An order as one side sees it: the laboratory never receives the patient's name unless the clinic shares it. */
export function toSummary(r: OrderRow, side: Side): OrderSummary {
  return {
    orderCode: r.code,
    orderType: r.order_type,
    status: r.status,
    processing: r.processing,
    caseCode: r.case_code,
    caseName: r.case_name,
    patientName: side === 'clinic' || r.share_patient_name ? r.patient_name : null,
    clinic: { code: r.clinic_code, name: r.clinic_name },
    lab: { code: r.lab_code, name: r.lab_name },
    workTypes: r.work_types,
    requestedDeliveryDate: r.requested_delivery_date,
    shipDate: r.ship_date,
    trackingNumber: r.tracking_number,
    estimatedDeliveryDate: r.estimated_delivery_date,
    product: r.product_code ? { productCode: r.product_code, name: r.product_name ?? '' } : null,
    createdAt: isoText(r.created_at),
    updatedAt: isoText(r.updated_at),
  };
}

/** An order's teeth: jsonb, as the driver gives it (parsed, or its text). */
function teethOf(r: Pick<OrderRow, 'teeth'>): ToothItem[] {
  return typeof r.teeth === 'string' ? (JSON.parse(r.teeth) as ToothItem[]) : r.teeth;
}

/** Orders from clinics to laboratories: one state machine for both sides, every change an event. */
export class OrdersService {
  // Static: what other modules read of orders on their connection, and the purge of a closed organization (in its
  // transaction): the orders it is a party to, with its partners. The order tables are written by this module alone.

  /** The ids of the organization's orders (either side) and the stored keys of their attachments. */
  static ofOrganization(tx: Queryable, organizationId: number) {
    return ordersRepository.ofOrganization(tx, organizationId);
  }

  /** The organization's newest orders on its side (the dashboard's), as rows. */
  static recent(db: Queryable, side: Side, organizationId: number, limit: number) {
    return ordersRepository.page(db, side, organizationId, { sortOrder: 'desc' }, limit, 0);
  }

  /** A case's orders, and their attachments deleted (an erasure, in its transaction; the orders stay). */
  static async eraseOfCase(tx: Queryable, caseId: number) {
    const orders = await ordersRepository.ofCase(tx, caseId);
    const attachments = orders.length
      ? await attachmentsRepository.deleteOfOrders(
          tx,
          orders.map((o) => Number(o.id)),
        )
      : [];
    return { orderCodes: orders.map((o) => o.code), attachments };
  }

  /** Deletes orders and all that hangs on them (events, attachments, messages, notifications). */
  static deleteByIds(tx: Queryable, ids: number[]) {
    return ordersRepository.deleteByIds(tx, ids);
  }

  constructor(
    private readonly db: Db,
    private readonly notifier: OrderNotifier,
    readonly attachments: OrderAttachments,
    private readonly catalogue: CatalogueService,
    private readonly accessLog: AccessLog,
  ) {}

  /** An order the caller's organization is a party to, or 404. */
  async findForCaller(auth: AuthContext, orderCode: string) {
    const side = sideOf(auth);
    const order = await ordersRepository.find(this.db, side, auth.organizationId, orderCode);
    if (!order) fail('NOT_FOUND');
    return { order, side };
  }

  /** Sends cases to a partner laboratory: one order per case, all or none. */
  async create(auth: AuthContext, body: CreateOrderBody) {
    if (sideOf(auth) !== 'clinic') fail('NO_PERMISSION');
    // What no laboratory could make (a pontic with nothing to hold it, a bridge with a gap): refused at the item's field.
    const [issue] = prescriptionIssues(body.teeth);
    if (issue) {
      const field = `teeth.${issue.index}.${issue.field}`;
      fail('PARAM_INVALID', { field }, { field, reason: issue.reason });
    }
    const lang = auth.user.language;
    const batch = newId();
    const ids = await this.db.transaction(async (tx) => {
      const p = await ordersRepository.shareLockPartnership(tx, auth.organizationId, body.partnerCode);
      if (!p) fail('NOT_FOUND');
      if (p.status !== PartnerStatus.Accepted || !p.lab_organization_id) fail('PARTNER_NOT_ACCEPTED');
      const rules = (await ordersRepository.requiredFields(tx, p.lab_organization_id)).map((r) => ({
        workType: r.work_type,
        fields: r.fields,
      })) as RequiredFieldRule[];
      // A catalogue product: its work type joins the order's, its required fields join the laboratory's rules, its
      // materials are the only ones the teeth may name, and its turnaround sets the estimated delivery date.
      const terms = body.productCode
        ? await this.catalogue.orderTerms(tx, Number(p.lab_organization_id), body.productCode)
        : null;
      let workTypes = body.workTypes;
      if (terms) {
        const { product } = terms;
        if (!workTypes.includes(product.workType)) workTypes = [...workTypes, product.workType];
        if (product.requiredFields.length) rules.push({ workType: product.workType, fields: product.requiredFields });
        const offered = product.materials;
        const strayAt = body.teeth.findIndex(
          (tooth) => tooth.material && offered.length && !offered.includes(tooth.material),
        );
        if (strayAt >= 0) {
          const field = `teeth.${strayAt}.material`;
          fail('PARAM_INVALID', { field }, { field });
        }
      }
      const [missing] = missingPrescriptionFields(rules, { ...body, workTypes });
      if (missing) {
        throw new AppError(
          'ORDER_FIELDS_REQUIRED',
          {
            lab: p.lab_name ?? '',
            workType: t(lang, `treatment.${missing.workType}`),
            fields: missing.fields.map((f) => t(lang, `prescriptionField.${f}`)).join(', '),
          },
          { missing: missingPrescriptionFields(rules, { ...body, workTypes }) },
        );
      }
      const cases = await ordersRepository.liveCases(tx, auth.organizationId, [...new Set(body.caseCodes)]);
      if (cases.length !== new Set(body.caseCodes).size) fail('NOT_FOUND');
      const [limited] = await ordersRepository.deviceLimited(
        tx,
        cases.map((c) => Number(c.id)),
        p.lab_organization_id,
      );
      if (limited)
        fail(limited.limit_type === 1 ? 'DEVICE_LIMIT_DESIGNATED' : 'DEVICE_LIMIT_CERTIFIED', {
          caseName: limited.name,
        });
      const made: number[] = [];
      for (const c of cases) {
        const orderId = await ordersRepository.insert(tx, {
          code: newCode('o'),
          clinicOrgId: auth.organizationId,
          labOrgId: p.lab_organization_id,
          partnershipId: p.id,
          caseId: c.id,
          orderType: body.orderType,
          workTypes,
          teeth: body.teeth,
          requestedDeliveryDate: body.requestedDeliveryDate ?? null,
          memo: body.memo ?? null,
          sharePatientName: body.sharePatientName,
          userId: auth.userId,
          productId: terms?.productId ?? null,
          estimatedDeliveryDate: terms?.estimatedDeliveryDate ?? null,
        });
        await ordersRepository.event(tx, {
          orderId,
          action: 'create',
          from: null,
          to: 'pending',
          reason: null,
          userId: auth.userId,
          orgId: auth.organizationId,
        });
        await this.caseFollows(tx, Number(c.id));
        made.push(orderId);
      }
      await this.notifier.record(tx, made, 'create', auth.organizationId, {}, batch);
      return made;
    });
    void this.notifier.mailBatch(batch);
    const rows = await ordersRepository.findByIds(this.db, ids);
    return { list: await Promise.all(rows.map((r) => this.detailOf(auth, r, 'clinic'))) };
  }

  /**
   * A remake (REMAKE_TRANSITION): the clinic asks the laboratory to make a shipped or completed order again. A new
   * pending order at the same laboratory carries the case and the prescription; the original keeps its status and an
   * event naming the remake, the remake's first event names the original. The laboratory is told as of a new order.
   */
  async remake(auth: AuthContext, body: RemakeOrderBody) {
    if (sideOf(auth) !== 'clinic') fail('NO_PERMISSION');
    const note = body.note?.trim() || null;
    const batch = newId();
    const id = await this.db.transaction(async (tx) => {
      const o = await ordersRepository.lockForClinic(tx, auth.organizationId, body.orderCode);
      if (!o) fail('NOT_FOUND');
      if (!canRemake(o.status, 'clinic')) fail('ORDER_REMAKE_NOT_ALLOWED');
      const standing = await ordersRepository.standingRemake(tx, Number(o.id), REMAKE_SETTLED_AGAIN);
      if (standing) fail('ORDER_REMAKE_EXISTS', { order: standing.code });
      if (o.partnership_status !== PartnerStatus.Accepted) fail('PARTNER_NOT_ACCEPTED');
      const made = await ordersRepository.insertRemake(tx, {
        code: newCode('o'),
        originalId: Number(o.id),
        reason: body.reason,
        note,
        userId: auth.userId,
      });
      // A case in the bin cannot be sent again, as order/create answers for it.
      if (!made) fail('NOT_FOUND');
      const remakeId = Number(made.id);
      const actor = { reason: note, userId: auth.userId, orgId: auth.organizationId };
      await ordersRepository.event(tx, {
        ...actor,
        orderId: remakeId,
        action: 'remake',
        from: null,
        to: REMAKE_TRANSITION.to,
        linkedOrderId: Number(o.id),
      });
      await ordersRepository.event(tx, {
        ...actor,
        orderId: Number(o.id),
        action: 'remakeRequested',
        from: o.status,
        to: o.status,
        linkedOrderId: remakeId,
      });
      await ScorecardsService.touch(tx, Number(o.lab_organization_id));
      await this.caseFollows(tx, Number(made.case_id));
      await this.notifier.record(tx, [remakeId], 'remake', auth.organizationId, { original: o.code }, batch);
      return remakeId;
    });
    void this.notifier.mailBatch(batch);
    const [row] = await ordersRepository.findByIds(this.db, [id]);
    return this.detailOf(auth, row!, 'clinic');
  }

  /**
   * One action on each of several orders, each in its own transaction with a row lock, so concurrent
   * conflicting actions leave exactly one winner; every order answers for itself.
   */
  async act(auth: AuthContext, body: OrderActionBody) {
    const side = sideOf(auth);
    if (body.action === 'reject' && !body.reason?.trim())
      fail('PARAM_INVALID', { field: 'reason' }, { field: 'reason' });
    if (body.action === 'ship' && !body.trackingNumber?.trim())
      fail('PARAM_INVALID', { field: 'trackingNumber' }, { field: 'trackingNumber' });
    const shipping = body.action === 'ship';
    // Shipped without a date: today where the laboratory works (its calendar's timezone), not in UTC.
    const shipDate = shipping
      ? (body.shipDate ??
        dateInTimeZone(new Date(), (await this.catalogue.workingCalendar(this.db, auth.organizationId)).timeZone))
      : null;
    const results = [];
    // Each order's notifications are written in its own transaction; their mails go out together after the batch.
    const batch = newId();
    const params: Record<string, string> = body.reason?.trim() ? { reason: body.reason.trim() } : {};
    for (const code of [...new Set(body.orderCodes)]) {
      try {
        await this.db.transaction(async (tx) => {
          const o = await ordersRepository.lockForSide(tx, side, auth.organizationId, code);
          if (!o) fail('NOT_FOUND');
          if (!canOrder(body.action, o.status, side, o.processing)) {
            // The status as the caller reads it, never its key.
            throw new AppError(
              'ORDER_TRANSITION',
              { status: t(auth.user.language, `export:status.${o.status}`) },
              { status: o.status, action: body.action },
            );
          }
          const to = ORDER_TRANSITIONS[body.action].to;
          // The scorecard reads the due date the laboratory shipped against, before the shipping update sets its own.
          if (shipping) await ScorecardsService.tallyShipment(tx, Number(o.id));
          await ordersRepository.applyAction(tx, o.id, {
            to,
            startProcessing: body.action === 'startProcessing',
            trackingNumber: shipping ? body.trackingNumber!.trim() : null,
            shipDate,
            estimatedDeliveryDate: shipping ? (body.estimatedDeliveryDate ?? null) : null,
          });
          // A remake canceled before the laboratory took it was withdrawn: it leaves the laboratory's scorecard.
          if (o.remake_of !== null && to === 'canceled')
            await ScorecardsService.touch(tx, Number(o.lab_organization_id));
          await ordersRepository.event(tx, {
            orderId: Number(o.id),
            action: body.action,
            from: o.status,
            to,
            reason: body.reason?.trim() || null,
            userId: auth.userId,
            orgId: auth.organizationId,
          });
          await this.caseFollows(tx, Number(o.case_id));
          await this.notifier.record(tx, [Number(o.id)], body.action, auth.organizationId, params, batch);
        });
        results.push({ orderCode: code, ok: true, code: 200, msg: t(auth.user.language, 'success') });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        results.push({
          orderCode: code,
          ok: false,
          code: err.entry.code,
          msg: t(auth.user.language, err.entry.key, err.params),
        });
      }
    }
    void this.notifier.mailBatch(batch);
    return { results };
  }

  /**
   * A partnership ended: its pending orders are canceled in the ending transaction (an event each, the cases follow,
   * the other side notified); accepted, ready and shipped orders go on. Answers the batch to mail.
   */
  async cancelPending(tx: Queryable, partnershipId: number, actor: AuthContext): Promise<string | null> {
    const pending = await ordersRepository.lockPendingOfPartnership(tx, partnershipId);
    if (!pending.length) return null;
    const to = 'canceled';
    for (const o of pending) {
      await ordersRepository.setStatus(tx, Number(o.id), to);
      await ordersRepository.event(tx, {
        orderId: Number(o.id),
        action: 'partnershipEnded',
        from: 'pending',
        to,
        reason: null,
        userId: actor.userId,
        orgId: actor.organizationId,
      });
    }
    // Cases are locked in one order (by id, as the sending of several cases does), so such transactions never wait on
    // each other in a circle.
    const withdrawn = pending.find((o) => o.remake_of !== null);
    if (withdrawn) await ScorecardsService.touch(tx, Number(withdrawn.lab_organization_id));
    const caseIds = [...new Set(pending.map((o) => Number(o.case_id)))].sort((a, b) => a - b);
    for (const caseId of caseIds) await this.caseFollows(tx, caseId);
    const batch = newId();
    const ids = pending.map((o) => Number(o.id));
    await this.notifier.record(tx, ids, 'partnershipEnded', actor.organizationId, {}, batch);
    return batch;
  }

  /**
   * The case follows its order, in every status. A case sent more than once (to a second laboratory, a remake)
   * follows the newest of its running orders, else the newest settled one, else the newest canceled one
   * (CASE_FOLLOWS_RANK). The case row is locked first, so orders of one case moving at once leave the status of the
   * order it follows, whichever commits last.
   */
  private async caseFollows(tx: Queryable, caseId: number) {
    await CasesService.lock(tx, caseId);
    const followed = await ordersRepository.followedByCase(tx, caseId, CASE_FOLLOWS_RANK);
    if (followed) await CasesService.followOrder(tx, caseId, CASE_STATUS_BY_ORDER[followed]);
  }

  mailBatch(batch: string) {
    return this.notifier.mailBatch(batch);
  }

  /** Who the caller's orders were exchanged with: what the list can be filtered by, without the partner screens. */
  async parties(auth: AuthContext) {
    const rows = await ordersRepository.parties(this.db, sideOf(auth), auth.organizationId);
    return { list: rows.map((r) => ({ partnerCode: r.partner_code, name: r.name })) };
  }

  /** Where a clinic can send orders: asked by roles that send without the partner screens (a laboratory has none). */
  async labs(auth: AuthContext) {
    const rows = await ordersRepository.acceptedLabs(this.db, auth.organizationId);
    return { list: rows.map((r) => ({ partnerCode: r.partner_code, name: r.name })) };
  }

  /** A page of the caller's orders; an app's list is logged as a read of patient data. */
  async list(auth: AuthContext, q: OrderFilter & { pageNum: number; pageSize: number }, reader: Reader) {
    const side = sideOf(auth);
    const { total, rows } = await ordersRepository.list(
      this.db,
      side,
      auth.organizationId,
      q,
      q.pageSize,
      (q.pageNum - 1) * q.pageSize,
    );
    await this.accessLog.appListed(reader, 'order.list');
    return { total, list: rows.map((r) => toSummary(r, side)) };
  }

  /**
   * An order for a share made by one of its parties: the summary as that side sees it (the laboratory never has the
   * patient's name unless the clinic shares it) and the case's files, which a laboratory shares only while it has
   * the scans (`scansWithheld` otherwise); undefined once the order or its case is gone.
   */
  async shared(orgId: number, orderId: number) {
    const row = await ordersRepository.findForParty(this.db, orgId, orderId);
    if (!row) return undefined;
    const side: Side = Number(row.clinic_organization_id) === orgId ? 'clinic' : 'lab';
    const scansWithheld = side === 'lab' && !labHasScans(row);
    const files = scansWithheld ? [] : await FilesService.byCase(this.db, row.case_id);
    return { summary: toSummary(row, side), caseId: Number(row.case_id), files: files.map(toCaseFile), scansWithheld };
  }

  /** The id of an order the caller's organization is a party to, or 404 (a share names the order by it). */
  /**
   * The laboratory marks where its work on some teeth stands (design, milling, finishing, done) while the order is in
   * production (accepted); the clinic reads it on the order's tooth chart. Teeth not in the order are refused, naming
   * the field; nothing is changed then.
   */
  async setToothStage(auth: AuthContext, body: ToothStageBody) {
    if (sideOf(auth) !== 'lab') fail('NO_PERMISSION');
    await this.db.transaction(async (tx) => {
      const o = await ordersRepository.lockForLab(tx, auth.organizationId, body.orderCode);
      if (!o) fail('NOT_FOUND');
      if (o.status !== 'accepted')
        throw new AppError(
          'ORDER_TRANSITION',
          { status: t(auth.user.language, `export:status.${o.status}`) },
          { status: o.status, action: 'toothStage' },
        );
      const teeth = teethOf(o);
      body.teeth.forEach((n, i) => {
        if (!teeth.some((item) => item.number === n)) invalidField(`teeth.${i}`, 'paramInvalid');
      });
      const marked = new Set(body.teeth);
      await ordersRepository.saveTeeth(
        tx,
        Number(o.id),
        teeth.map((item) => (marked.has(item.number) ? { ...item, stage: body.stage } : item)),
      );
      // The clinic's open order page shows the chart's new stages (no notification: it is progress, not news).
      await EventsService.record(
        tx,
        [Number(o.clinic_organization_id), Number(o.lab_organization_id)].map((organizationId) => ({
          organizationId,
          permission: 'order:view',
          kind: 'order.changed',
          subject: o.code,
          data: { status: o.status, event: 'toothStage' },
        })),
      );
    });
  }

  async idOf(auth: AuthContext, orderCode: string): Promise<number> {
    return Number((await this.findForCaller(auth, orderCode)).order.id);
  }

  /** An order as its side sees it; each reading is logged as a read of the clinic's patient data. */
  async detail(auth: AuthContext, orderCode: string, reader: Reader) {
    const { order, side } = await this.findForCaller(auth, orderCode);
    const detail = await this.detailOf(auth, order, side);
    await this.accessLog.read(reader, {
      ownerOrgId: Number(order.clinic_organization_id),
      action: 'order.view',
      caseId: Number(order.case_id),
      orderId: Number(order.id),
    });
    return detail;
  }

  private async detailOf(auth: AuthContext, r: OrderRow, side: Side): Promise<OrderDetail> {
    const scansWithheld = side === 'lab' && !labHasScans(r);
    const [events, files, attachments, unread, links] = await Promise.all([
      ordersRepository.events(this.db, r.id),
      // The laboratory keeps the order's record (summary, prescription, history) but sees the scans only by the rule.
      scansWithheld ? [] : FilesService.byCase(this.db, r.case_id),
      this.attachments.listByOrder(this.db, r.id),
      ordersRepository.unreadNotifications(this.db, auth.userId, r.id, MSG_TYPES.orderMessage),
      ordersRepository.remakeLinks(this.db, { id: Number(r.id), remake_of: r.remake_of }),
    ]);
    return {
      ...toSummary(r, side),
      teeth: teethOf(r),
      memo: r.memo,
      sharePatientName: r.share_patient_name,
      events: events.map((e) => ({
        action: e.action,
        from: e.from_status,
        to: e.to_status,
        reason: e.reason,
        actorName: e.actor ?? '',
        actorOrganization: e.org ?? '',
        at: new Date(e.created_at).toISOString(),
        linkedOrderCode: e.linked_order_code,
      })),
      files: files.map(toCaseFile),
      scansWithheld,
      threadOpen: threadIsOpen(r),
      attachments: attachments.map((a) => toAttachment(a, auth.organizationId)),
      unreadMessages: unread?.count ?? 0,
      remakeOf:
        links.originalCode && r.remake_reason
          ? { orderCode: links.originalCode, reason: r.remake_reason, note: r.remake_note }
          : null,
      remakes: links.remakes.map((m) => ({ orderCode: m.code, reason: m.remake_reason, status: m.status })),
    };
  }

  /** Rows for the export of a filtered list (newest first), capped so one request stays bounded. */
  async exportRows(auth: AuthContext, q: OrderFilter, limit: number) {
    const side = sideOf(auth);
    const rows = await ordersRepository.page(this.db, side, auth.organizationId, q, limit, 0);
    return rows.map((r) => toSummary(r, side));
  }

  /** A laboratory reads its own rules; a clinic reads those of the laboratory behind one of its partnerships. */
  async requiredFields(auth: AuthContext, partnerCode?: string) {
    let labOrgId = auth.organizationId;
    let labName = auth.user.org_name;
    if (sideOf(auth) === 'clinic') {
      if (!partnerCode) fail('PARAM_INVALID', { field: 'partnerCode' }, { field: 'partnerCode' });
      const p = await ordersRepository.partnershipLab(this.db, auth.organizationId, partnerCode);
      if (!p?.lab_organization_id) fail('NOT_FOUND');
      labOrgId = Number(p.lab_organization_id);
      labName = p.name ?? '';
    }
    const rows = await ordersRepository.requiredFields(this.db, labOrgId);
    return {
      labName,
      rules: rows.map((r) => ({
        workType: r.work_type,
        fields: r.fields as PrescriptionField[],
      })) as RequiredFieldRule[],
    };
  }

  async saveRequiredFields(auth: AuthContext, rules: RequiredFieldRule[]) {
    if (sideOf(auth) !== 'lab') fail('NO_PERMISSION');
    const byType = new Map(rules.map((r) => [r.workType, r]));
    await this.db.transaction((tx) =>
      ordersRepository.saveRequiredFields(tx, auth.organizationId, [...byType.values()]),
    );
  }
}
