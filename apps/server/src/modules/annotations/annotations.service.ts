import {
  ANNOTATION_LIMITS,
  MARGIN_LINE_STATUSES,
  type AddAnnotationBody,
  type Annotation,
  type MarginLine,
  type OrderStatus,
  type Point3,
  type SaveMarginLineBody,
  type ToothItem,
} from '@portal/contracts';
import type { AuthContext } from '../../platform/auth.js';
import type { Db, Queryable } from '../../platform/db.js';
import { AppError, fail, invalidField } from '../../platform/errors.js';
import { newCode } from '../../platform/crypto.js';
import { t } from '../../platform/i18n.js';
import type { CasesService } from '../cases/cases.service.js';
import type { OrdersService } from '../orders/orders.service.js';
import { annotationsRepository, type AnnotationRow, type MarginLineRow } from './annotations.repository.js';

const iso = (d: Date | string) => new Date(d).toISOString();

function toAnnotation(r: AnnotationRow): Annotation {
  return {
    annotationCode: r.code,
    fileCode: r.file_code,
    point: [Number(r.x), Number(r.y), Number(r.z)],
    text: r.text,
    number: Number(r.number),
    authorName: r.author_name,
    createdAt: iso(r.created_at),
  };
}

function toMarginLine(r: MarginLineRow): MarginLine {
  return {
    tooth: Number(r.tooth),
    fileCode: r.file_code,
    points: (typeof r.points === 'string' ? JSON.parse(r.points) : r.points) as Point3[],
    authorName: r.author_name,
    organizationName: r.organization_name,
    updatedAt: iso(r.updated_at),
  };
}

/**
 * The 3D viewer's tools: annotations pinned to a case's models (the case's organization writes them, the laboratory
 * of an order reads its case's) and margin lines per prepared tooth of an order (either party draws them while the
 * order runs). Which case or order a caller may name is the cases' and the orders' services' to say.
 */
export class AnnotationsService {
  constructor(
    private readonly db: Db,
    private readonly cases: CasesService,
    private readonly orders: OrdersService,
  ) {}

  /** The annotations of a case of the caller's organization (not in the recycle bin), oldest first. */
  async listOfCase(orgId: number, caseCode: string) {
    const caseId = await this.cases.idOf(orgId, caseCode);
    return { list: (await annotationsRepository.listByCase(this.db, caseId)).map(toAnnotation) };
  }

  /** The annotations of the case of an order the caller's organization is a party to (read-only for both). */
  async listOfOrder(auth: AuthContext, orderCode: string) {
    const { order } = await this.orders.findForCaller(auth, orderCode);
    return { list: (await annotationsRepository.listByCase(this.db, Number(order.case_id))).map(toAnnotation) };
  }

  /**
   * Pins a note to a model of the case. A file that is not a model of this case answers 400 naming `fileCode`
   * (another case's file is told from a missing one by nobody); a case holds at most ANNOTATION_LIMITS.perCase,
   * counted under the case's row lock so concurrent additions cannot pass it together.
   */
  async add(auth: AuthContext, body: AddAnnotationBody): Promise<Annotation> {
    const orgId = auth.organizationId;
    const caseId = await this.cases.idOf(orgId, body.caseCode);
    const code = newCode('an');
    await this.db.transaction(async (tx) => {
      // Moved to the recycle bin since it was found: refused like every edit of a case in the bin.
      if (!(await annotationsRepository.lockLiveCase(tx, caseId))) fail('NOT_FOUND');
      const fileId = await annotationsRepository.lockModelFile(tx, caseId, body.fileCode);
      if (!fileId) invalidField('fileCode', 'paramInvalid');
      if ((await annotationsRepository.countByCase(tx, caseId)) >= ANNOTATION_LIMITS.perCase)
        fail('TOO_MANY_ANNOTATIONS', { count: ANNOTATION_LIMITS.perCase }, { max: ANNOTATION_LIMITS.perCase });
      await annotationsRepository.insert(tx, {
        code,
        orgId,
        caseId,
        fileId,
        point: body.point,
        text: body.text,
        userId: auth.userId,
      });
    });
    const row = await annotationsRepository.findInCase(this.db, caseId, code);
    // Its file deleted in the instant since: the annotation went with it.
    if (!row) fail('NOT_FOUND');
    return toAnnotation(row);
  }

  /** Removes an annotation of the caller's organization; another's, or one of a case in the bin, answers 404. */
  async delete(orgId: number, annotationCode: string) {
    if (!(await annotationsRepository.delete(this.db, orgId, annotationCode))) fail('NOT_FOUND');
  }

  /** The margin lines of an order the caller's organization is a party to, by tooth. */
  async marginLines(auth: AuthContext, orderCode: string) {
    const { order } = await this.orders.findForCaller(auth, orderCode);
    return { list: (await annotationsRepository.marginLines(this.db, Number(order.id))).map(toMarginLine) };
  }

  /**
   * Creates or replaces the margin line of one of the order's prescribed teeth (as order/toothStage reads them), on a
   * model of the order's case. Either party, while the order runs (MARGIN_LINE_STATUSES); else 2035 naming the
   * status, as order/toothStage answers.
   */
  async saveMarginLine(auth: AuthContext, body: SaveMarginLineBody): Promise<MarginLine> {
    const { order } = await this.orders.findForCaller(auth, body.orderCode);
    const orderId = Number(order.id);
    await this.db.transaction(async (tx) => {
      await this.checkOrder(tx, auth, orderId, order.teeth, body.tooth);
      const fileId = await annotationsRepository.lockModelFile(tx, Number(order.case_id), body.fileCode);
      if (!fileId) invalidField('fileCode', 'paramInvalid');
      await annotationsRepository.saveMarginLine(tx, {
        orderId,
        tooth: body.tooth,
        fileId,
        points: body.points,
        orgId: auth.organizationId,
        userId: auth.userId,
      });
    });
    const row = await annotationsRepository.marginLine(this.db, orderId, body.tooth);
    if (!row) fail('NOT_FOUND');
    return toMarginLine(row);
  }

  /** Removes a tooth's margin line, under the rules of saving one; a tooth without a line answers 404. */
  async deleteMarginLine(auth: AuthContext, orderCode: string, tooth: number) {
    const { order } = await this.orders.findForCaller(auth, orderCode);
    await this.db.transaction(async (tx) => {
      await this.checkOrder(tx, auth, Number(order.id), order.teeth, tooth);
      if (!(await annotationsRepository.deleteMarginLine(tx, Number(order.id), tooth))) fail('NOT_FOUND');
    });
  }

  /** The order still runs (read under its lock) and prescribes the tooth. */
  private async checkOrder(tx: Queryable, auth: AuthContext, orderId: number, teeth: unknown, tooth: number) {
    const status = (await annotationsRepository.lockOrderStatus(tx, orderId)) as OrderStatus | undefined;
    if (!status) fail('NOT_FOUND');
    if (!MARGIN_LINE_STATUSES.includes(status))
      throw new AppError(
        'ORDER_TRANSITION',
        { status: t(auth.user.language, `export:status.${status}`) },
        { status, action: 'marginLine' },
      );
    const items = (typeof teeth === 'string' ? JSON.parse(teeth) : teeth) as ToothItem[];
    if (!items.some((item) => item.number === tooth)) invalidField('tooth', 'paramInvalid');
  }
}
