/** The few icons of the visitor's page, drawn inline (an icon library would weigh on its first load). */
const paths = {
  download: 'M12 3v12m0 0-5-5m5 5 5-5M4 19h16',
  warning: 'M12 3 2 21h20L12 3zm0 6v6m0 3v.01',
  error: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm-4 6 8 8m0-8-8 8',
} as const;

export function Icon({ name, size = 16 }: { name: keyof typeof paths; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={paths[name]} />
    </svg>
  );
}
