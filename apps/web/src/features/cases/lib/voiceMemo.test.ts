// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { microphoneFailureKey, voiceMemoName } from './voiceMemo';

describe('voice memo', () => {
  it('tells a refused microphone from a missing one', () => {
    expect(microphoneFailureKey(new DOMException('x', 'NotAllowedError'))).toBe('voice.notAllowed');
    expect(microphoneFailureKey(new DOMException('x', 'NotFoundError'))).toBe('voice.notDetected');
    expect(microphoneFailureKey(new Error('boom'))).toBe('voice.notDetected');
  });
  it('names recordings by time', () => {
    expect(voiceMemoName(new Date(2026, 10, 21, 14, 5, 9))).toBe('voice-memo-2026-11-21-140509.webm');
  });
});
