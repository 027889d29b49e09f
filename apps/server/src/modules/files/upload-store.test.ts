import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.js';
import { CHECKSUM_ALGORITHMS, parseChecksum } from './upload-store.js';

const digest = (algorithm: string) => createHash(algorithm).update('chunk').digest();

describe('Upload-Checksum', () => {
  it('reads every offered algorithm, whatever the case of its name', () => {
    for (const algorithm of CHECKSUM_ALGORITHMS) {
      const parsed = parseChecksum(`${algorithm.toUpperCase()} ${digest(algorithm).toString('base64')}`);
      expect(parsed.algorithm).toBe(algorithm);
      expect(parsed.digest.equals(digest(algorithm))).toBe(true);
    }
  });

  it('refuses unknown algorithms, digests of the wrong length and malformed values, naming the header', () => {
    for (const header of [
      `crc32 ${digest('sha1').toString('base64')}`,
      `constructor ${digest('sha1').toString('base64')}`,
      `sha1 ${digest('md5').toString('base64')}`,
      `sha256 ${digest('sha1').toString('base64')}`,
      'sha1',
      'sha1 not base64!',
      '',
    ]) {
      let refusal: unknown;
      try {
        parseChecksum(header);
      } catch (err) {
        refusal = err;
      }
      expect(refusal, header).toBeInstanceOf(AppError);
      expect((refusal as AppError).errorName).toBe('PARAM_INVALID');
      expect((refusal as AppError).params).toEqual({ field: 'Upload-Checksum' });
    }
  });
});
