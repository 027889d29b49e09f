import type { OrderMessage } from '../api/types';

/** What the server takes as an order attachment (checked there by content): images, pdf, 3D models, video, audio. */
export const ATTACHMENT_FORMATS = ['jpg', 'jpeg', 'png', 'gif', 'pdf', 'stl', 'ply', 'obj', 'mp4', 'mp3'] as const;
export const ATTACHMENT_ACCEPT = ATTACHMENT_FORMATS.map((f) => `.${f}`).join(',');
export const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;
/** msg/send takes at most 10 attachment codes. */
export const MAX_MESSAGE_ATTACHMENTS = 10;

/** Splits picked files into those to upload and those refused before any upload (too large or not an accepted format). */
export function checkAttachments(files: readonly File[]): { ok: File[]; tooLarge: File[]; badFormat: File[] } {
  const out = { ok: [] as File[], tooLarge: [] as File[], badFormat: [] as File[] };
  for (const f of files) {
    const ext = f.name.includes('.') ? f.name.slice(f.name.lastIndexOf('.') + 1).toLowerCase() : '';
    if (!(ATTACHMENT_FORMATS as readonly string[]).includes(ext)) out.badFormat.push(f);
    else if (f.size > MAX_ATTACHMENT_BYTES) out.tooLarge.push(f);
    else out.ok.push(f);
  }
  return out;
}

/**
 * The thread as shown: oldest at the top. The pages come newest first and shift as messages arrive,
 * so a message can appear on two pages: keep one of each.
 */
export function threadOrder(pages: readonly { list: readonly OrderMessage[] }[]): OrderMessage[] {
  const byId = new Map<number, OrderMessage>();
  for (const p of pages) for (const m of p.list) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}
