import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CompanyImageTarget } from '@portal/contracts';
import { companyKeys, uploadCompanyImage } from './company';

/**
 * Replaces the logo or the licence image: the organization's information takes the answer, and the image is read
 * again before the returned promise resolves. A refusal is thrown to the caller.
 */
export function useUploadCompanyImage(target: CompanyImageTarget): (file: File) => Promise<void> {
  const qc = useQueryClient();
  return useCallback(
    async (file: File) => {
      const saved = await uploadCompanyImage(target, file);
      qc.setQueryData(companyKeys.info, saved);
      await qc.invalidateQueries({ queryKey: companyKeys.image(target) });
    },
    [qc, target],
  );
}
