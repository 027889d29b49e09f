/** The message key for a microphone that could not be used: missing, or not allowed. */
export function microphoneFailureKey(err: unknown): string {
  const name = err instanceof DOMException || err instanceof Error ? err.name : '';
  return name === 'NotAllowedError' || name === 'SecurityError' ? 'voice.notAllowed' : 'voice.notDetected';
}

/** voice-memo-2026-11-21-1405.webm: sortable and recognisable in the file list. */
export function voiceMemoName(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `voice-memo-${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}-${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}.webm`;
}
