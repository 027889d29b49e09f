import { USAGE_BATCH_MAX, ERRORS, type UsageEvent } from '@portal/contracts';
import { sendUsage } from '../api/usage';

/**
 * The improvement programme's counting in the browser. Nothing is recorded, kept or sent unless the signed-in
 * user joined (`start`); leaving (`stop`) drops what is queued. Events name a screen, a button or a load time:
 * never what is on the screen, typed, or whose it is.
 */
const FLUSH_AFTER_MS = 5_000;

let enabled = false;
let queue: UsageEvent[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;
let currentScreen = 'start';

export function startUsage() {
  if (enabled) return;
  enabled = true;
  document.addEventListener('click', onClick, true);
  document.addEventListener('visibilitychange', onHidden);
}

export function stopUsage() {
  enabled = false;
  queue = [];
  if (timer) clearTimeout(timer);
  timer = null;
  document.removeEventListener('click', onClick, true);
  document.removeEventListener('visibilitychange', onHidden);
}

export function usageEnabled() {
  return enabled;
}

export function screenOpened(screen: string, loadMs?: number) {
  currentScreen = screen;
  record({ kind: 'screen', screen, ...(loadMs === undefined ? {} : { loadMs: Math.max(0, Math.round(loadMs)) }) });
}

function record(event: UsageEvent) {
  if (!enabled) return;
  queue.push(event);
  if (queue.length >= USAGE_BATCH_MAX) void flush();
  else timer ??= setTimeout(() => void flush(), FLUSH_AFTER_MS);
}

/** Sends what is queued in one small batch. */
export async function flush() {
  if (timer) clearTimeout(timer);
  timer = null;
  if (!enabled || queue.length === 0) return;
  const batch = queue.splice(0, USAGE_BATCH_MAX);
  try {
    await sendUsage(batch);
  } catch (err) {
    // Left the programme in another tab: stop here too.
    if ((err as { code?: number }).code === ERRORS.IMPROVEMENT_PLAN_NOT_JOINED.code) stopUsage();
  }
  if (queue.length) timer ??= setTimeout(() => void flush(), FLUSH_AFTER_MS);
}

/**
 * An action is a button, link, tab or menu entry with a test id made of words only (`order-ship`); ids that carry a
 * code or number (`case-row-C8F2A1`) name a record and are not counted.
 */
const ACTION_NAME = /^[a-z]+(?:-[a-z]+)*$/;
function onClick(event: MouseEvent) {
  const target = (event.target as Element | null)?.closest?.('button, a, [role="menuitem"], [role="tab"]');
  const named = target?.closest('[data-testid]');
  const action = named?.getAttribute('data-testid');
  if (action && ACTION_NAME.test(action)) record({ kind: 'action', screen: currentScreen, action });
}

function onHidden() {
  if (document.visibilityState === 'hidden') void flush();
}
