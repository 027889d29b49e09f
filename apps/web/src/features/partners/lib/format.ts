import dayjs from 'dayjs';

/** "City, Country" with whatever parts are known. */
export function locationOf(o: { city: string | null; country: string | null }): string {
  return [o.city, o.country].filter((x): x is string => !!x && x.trim() !== '').join(', ');
}

export const formatDateTime = (iso: string | null | undefined) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '');
