import { act } from 'react';
import { expect } from 'vitest';

/** The element with this data-testid, or null. */
export const $ = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
/** Every element with this data-testid. */
export const $$ = (id: string) => [...document.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];

/** Lets `times` timers of `ms` run in turn, with the rendering they cause. */
export async function flush(times = 1, ms = 0) {
  for (let i = 0; i < times; i++) await act(async () => void (await new Promise((r) => setTimeout(r, ms))));
}

/** Clicks as a browser would (SVG elements too, which have no click()), then lets the page settle. */
export async function click(node: Element | null | undefined, settle: () => Promise<void> = () => flush()) {
  expect(node).toBeTruthy();
  await act(async () => void node!.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true })));
  await settle();
}

/** Types into an input or textarea as React sees it. */
export async function type(node: Element | null, value: string) {
  expect(node).not.toBeNull();
  const input = node as HTMLInputElement | HTMLTextAreaElement;
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(input), 'value')!.set!;
  await act(async () => {
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Waits (up to 10 s) until the check passes: lazy chunks and queries take longer on a busy machine. */
export async function waitFor(check: () => unknown, ms = 10_000) {
  const start = Date.now();
  while (!check() && Date.now() - start < ms) await act(async () => void (await new Promise((r) => setTimeout(r, 20))));
}
