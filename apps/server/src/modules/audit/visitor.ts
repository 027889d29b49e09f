import { createHmac } from 'node:crypto';

const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];
const SYSTEMS: Array<[RegExp, string]> = [
  [/\bAndroid\b/, 'Android'],
  [/\biPhone|iPad|iPod\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * What the access log keeps of a user agent: the browser family and the operating system family, nothing that
 * tells one visitor from another (no versions, no device models).
 */
export function coarseUserAgent(header: string | undefined): string {
  const ua = (header ?? '').slice(0, 1000);
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1] ?? 'Other';
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1] ?? 'Other';
  return `${browser} · ${system}`;
}

/**
 * A visitor's address as the access log keeps it: keyed by the server's secret and the share, and cut to 48 bits, so
 * equal values within one share mean the same address, and nothing more (not across shares, not reversible).
 */
export function addressHash(secret: string, shareId: number, address: string): string {
  return createHmac('sha256', `share-address:${secret}`).update(`${shareId}:${address}`).digest('hex').slice(0, 12);
}
