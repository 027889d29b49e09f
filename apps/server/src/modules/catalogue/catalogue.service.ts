import {
  addWorkingDays,
  dateInTimeZone,
  DEFAULT_LAB_TIME_ZONE,
  DEFAULT_WORKING_WEEKDAYS,
  OrgType,
  PartnerStatus,
  type LabCalendar,
  type LabProduct,
  type SaveProductBody,
} from '@portal/contracts';
import type { AuthContext } from '../../platform/auth.js';
import type { Db, Queryable } from '../../platform/db.js';
import { AppError, fail } from '../../platform/errors.js';
import { newCode } from '../../platform/crypto.js';
import { catalogueRepository, type ProductRow } from './catalogue.repository.js';

export function toProduct(r: ProductRow): LabProduct {
  return {
    productCode: r.code,
    name: r.name,
    workType: r.work_type as LabProduct['workType'],
    materials: r.materials,
    turnaroundDays: Number(r.turnaround_days),
    price: r.price === null ? null : Number(r.price),
    currency: r.currency as LabProduct['currency'],
    requiredFields: r.required_fields as LabProduct['requiredFields'],
  };
}

/** A laboratory's working calendar as the date calculation reads it (the defaults until it saves one). */
export interface LabWorkingCalendar {
  workingWeekdays: number[];
  closedDates: string[];
  timeZone: string;
}

/**
 * A laboratory's product catalogue and working calendar, and the delivery dates computed from them. Only the
 * laboratory changes them; a clinic reads them through an accepted partnership.
 */
export class CatalogueService {
  constructor(private readonly db: Db) {}

  private labOnly(auth: AuthContext) {
    if (auth.orgType !== OrgType.Lab) fail('NO_PERMISSION');
  }

  /** The laboratory a caller reads: its own, or for a clinic the one behind an accepted partnership (else 404). */
  private async labFor(auth: AuthContext, partnerCode: string | undefined) {
    if (auth.orgType === OrgType.Lab) return { labOrgId: auth.organizationId, labName: auth.user.org_name };
    if (auth.orgType !== OrgType.Clinic) fail('NO_PERMISSION');
    if (!partnerCode) fail('PARAM_INVALID', { field: 'partnerCode' }, { field: 'partnerCode' });
    const p = await catalogueRepository.labOfPartnership(this.db, auth.organizationId, partnerCode);
    if (!p?.lab_organization_id) fail('NOT_FOUND');
    if (p.status !== PartnerStatus.Accepted) fail('PARTNER_NOT_ACCEPTED');
    return { labOrgId: Number(p.lab_organization_id), labName: p.lab_name ?? '' };
  }

  async products(auth: AuthContext, partnerCode?: string) {
    const { labOrgId, labName } = await this.labFor(auth, partnerCode);
    const rows = await catalogueRepository.products(this.db, labOrgId);
    return { labName, list: rows.map(toProduct) };
  }

  /** Creates a product, or replaces one of the laboratory's own (another's answers 404 and changes nothing). */
  async saveProduct(auth: AuthContext, body: SaveProductBody) {
    this.labOnly(auth);
    const values = {
      name: body.name,
      workType: body.workType,
      materials: [...new Set(body.materials)],
      turnaroundDays: body.turnaroundDays,
      price: body.price ?? null,
      currency: body.price === undefined || body.price === null ? null : (body.currency ?? null),
      requiredFields: [...new Set(body.requiredFields)],
    };
    const code = body.productCode || null;
    try {
      return await this.db.transaction(async (tx) => {
        const existing = code ? await catalogueRepository.product(tx, auth.organizationId, code, true) : undefined;
        if (code && !existing) fail('NOT_FOUND');
        if (await catalogueRepository.nameTaken(tx, auth.organizationId, values.name, code))
          fail('PRODUCT_NAME_TAKEN', { name: values.name }, { field: 'name' });
        const row = existing
          ? await catalogueRepository.updateProduct(tx, Number(existing.id), values)
          : await catalogueRepository.insertProduct(tx, auth.organizationId, newCode('p'), values);
        return toProduct(row);
      });
    } catch (err) {
      // Two saves of one name at once: the unique index stops the second.
      if ((err as { code?: string }).code === '23505')
        throw new AppError('PRODUCT_NAME_TAKEN', { name: values.name }, { field: 'name' });
      throw err;
    }
  }

  /** Removes a product from the catalogue; orders that name it keep it. */
  async deleteProduct(auth: AuthContext, productCode: string) {
    this.labOnly(auth);
    await this.db.transaction(async (tx) => {
      const product = await catalogueRepository.product(tx, auth.organizationId, productCode, true);
      if (!product) fail('NOT_FOUND');
      await catalogueRepository.removeProduct(tx, Number(product.id));
    });
  }

  /** The working calendar a laboratory's dates are computed with. */
  async workingCalendar(db: Queryable, labOrgId: number): Promise<LabWorkingCalendar & { saved: boolean }> {
    const [calendar, closed] = await Promise.all([
      catalogueRepository.calendar(db, labOrgId),
      catalogueRepository.closedDates(db, labOrgId),
    ]);
    return {
      workingWeekdays: calendar ? calendar.working_weekdays.map(Number) : [...DEFAULT_WORKING_WEEKDAYS],
      closedDates: closed.map((c) => c.date),
      timeZone: calendar?.time_zone ?? DEFAULT_LAB_TIME_ZONE,
      saved: Boolean(calendar),
    };
  }

  async calendar(auth: AuthContext) {
    this.labOnly(auth);
    const [calendar, closed] = await Promise.all([
      this.workingCalendar(this.db, auth.organizationId),
      catalogueRepository.closedDates(this.db, auth.organizationId),
    ]);
    return {
      workingWeekdays: calendar.workingWeekdays,
      closedDates: closed,
      timeZone: calendar.timeZone,
      saved: calendar.saved,
    };
  }

  async saveCalendar(auth: AuthContext, body: LabCalendar) {
    this.labOnly(auth);
    // One entry per day: the last note given for a day wins.
    const closed = new Map(body.closedDates.map((d) => [d.date, d.note?.trim() || null]));
    await this.db.transaction((tx) =>
      catalogueRepository.saveCalendar(tx, auth.organizationId, {
        workingWeekdays: [...new Set(body.workingWeekdays)].sort((a, b) => a - b),
        timeZone: body.timeZone,
        closedDates: [...closed].sort(([a], [b]) => a.localeCompare(b)).map(([date, note]) => ({ date, note })),
      }),
    );
    return this.calendar(auth);
  }

  /**
   * The terms an order of a product is sent under: the product (404 when it is not the laboratory's) and the day it
   * is due, counted from today in the laboratory's timezone.
   */
  async orderTerms(db: Queryable, labOrgId: number, productCode: string, now = new Date()) {
    const row = await catalogueRepository.product(db, labOrgId, productCode);
    if (!row) fail('NOT_FOUND');
    const calendar = await this.workingCalendar(db, labOrgId);
    const receivedOn = dateInTimeZone(now, calendar.timeZone);
    return {
      productId: Number(row.id),
      product: toProduct(row),
      receivedOn,
      estimatedDeliveryDate: addWorkingDays(receivedOn, Number(row.turnaround_days), calendar),
    };
  }

  /** What the clinic's send dialog shows before sending: when an order of the product would be due. */
  async estimate(auth: AuthContext, partnerCode: string, productCode: string) {
    if (auth.orgType !== OrgType.Clinic) fail('NO_PERMISSION');
    const { labOrgId } = await this.labFor(auth, partnerCode);
    const terms = await this.orderTerms(this.db, labOrgId, productCode);
    return {
      receivedOn: terms.receivedOn,
      turnaroundDays: terms.product.turnaroundDays,
      estimatedDeliveryDate: terms.estimatedDeliveryDate,
    };
  }
}
