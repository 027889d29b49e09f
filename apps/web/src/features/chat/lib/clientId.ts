/** A message's id made by the page: sent again after a failure, the server stores the message once. */
export function newClientId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `m${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
