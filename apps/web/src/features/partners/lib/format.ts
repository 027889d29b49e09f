/** "City, Country" with whatever parts are known. */
export function locationOf(o: { city: string | null; country: string | null }): string {
  return [o.city, o.country].filter((x): x is string => !!x && x.trim() !== '').join(', ');
}
