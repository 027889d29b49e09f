import { useEffect, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { reportImage } from '../api/reports';
import { reportKeys } from '../api/keys';

/** A picture of a report (fetched with the session, as it is not public) as an object URL, freed when unused. */
export function useReportImage(reportCode: string, source: 'file' | 'snapshot', code: string) {
  const query = useQuery({
    queryKey: reportKeys.image(reportCode, source, code),
    queryFn: () => reportImage(reportCode, source, code),
    staleTime: Infinity,
    retry: false,
  });
  const blob = query.data?.blob;
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : null), [blob]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return { url, failed: query.isError };
}
