import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';
import type { OrderStatus } from './orders.js';
import { zIntIn, zNumberIn, zRequiredText } from './fields.js';

/**
 * Points the 3D viewer's tools pin to a model: millimetres in the frame of the model file's compact viewer version
 * (the viewer draws meshes untransformed, so a picked world point is a point of the model).
 */
export const COORDINATE_MAX_MM = 10_000;

export const ANNOTATION_LIMITS = {
  /** Characters of an annotation's text, trimmed. */
  text: 500,
  /** Annotations one case holds. */
  perCase: 100,
} as const;

export const MARGIN_LINE_LIMITS = {
  /** A closed loop around the preparation: at least a triangle. */
  minPoints: 3,
  maxPoints: 500,
} as const;

/**
 * The order statuses in which either party may draw or remove a margin line: while the order runs (pending,
 * accepted, ready, shipped). A canceled, rejected or completed order keeps its lines as they are (2035).
 */
export const MARGIN_LINE_STATUSES: readonly OrderStatus[] = ['pending', 'accepted', 'ready', 'shipped'];

/** A coordinate in millimetres, finite, within ±COORDINATE_MAX_MM. */
export const zCoordinate = zNumberIn(-COORDINATE_MAX_MM, COORDINATE_MAX_MM);
/** A point `[x, y, z]` of a model. */
// Each axis described apart: the API document lists a tuple's items as alternatives, which must not be identical.
export const Point3 = z.tuple([
  zCoordinate.describe('x, mm'),
  zCoordinate.describe('y, mm'),
  zCoordinate.describe('z, mm'),
]);
export type Point3 = z.infer<typeof Point3>;

export const AddAnnotationBody = z.object({
  caseCode: zRequiredText(FIELD_MAX.code),
  /** A model (scan) file of the case. */
  fileCode: zRequiredText(FIELD_MAX.code),
  point: Point3,
  text: zRequiredText(ANNOTATION_LIMITS.text),
});
export type AddAnnotationBody = z.infer<typeof AddAnnotationBody>;
export const AnnotationCodeBody = z.object({ annotationCode: zRequiredText(FIELD_MAX.code) });

export const Annotation = z.object({
  annotationCode: z.string(),
  fileCode: z.string(),
  point: Point3,
  text: z.string(),
  /** Its position in the case's list, oldest first (1-based): the label the viewer shows on the pin. */
  number: z.number().int(),
  /** Null once the author's account is deleted. */
  authorName: z.string().nullable(),
  createdAt: z.string(),
});
export type Annotation = z.infer<typeof Annotation>;
export const AnnotationList = z.object({ list: z.array(Annotation) });

/** An FDI tooth number of the order's prescription (the service refuses a tooth the order does not name). */
const zOrderTooth = zIntIn(11, 48);

export const SaveMarginLineBody = z.object({
  orderCode: zRequiredText(FIELD_MAX.code),
  tooth: zOrderTooth,
  /** A model (scan) file of the order's case. */
  fileCode: zRequiredText(FIELD_MAX.code),
  points: z.array(Point3).min(MARGIN_LINE_LIMITS.minPoints).max(MARGIN_LINE_LIMITS.maxPoints),
});
export type SaveMarginLineBody = z.infer<typeof SaveMarginLineBody>;
export const MarginLineToothBody = z.object({ orderCode: zRequiredText(FIELD_MAX.code), tooth: zOrderTooth });

export const MarginLine = z.object({
  tooth: z.number().int(),
  fileCode: z.string(),
  points: z.array(Point3),
  /** Who saved it last; null once that account is deleted. */
  authorName: z.string().nullable(),
  /** The organization (the clinic or the laboratory of the order) that saved it last. */
  organizationName: z.string(),
  updatedAt: z.string(),
});
export type MarginLine = z.infer<typeof MarginLine>;
export const MarginLineList = z.object({ list: z.array(MarginLine) });
