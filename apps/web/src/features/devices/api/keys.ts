import type { DeviceQuery } from './listDevices';

/** Query keys of the devices feature, as prefixes: invalidating `all` reaches every list and both lab limits. */
export const deviceKeys = {
  all: ['devices'] as const,
  list: (q: DeviceQuery) => ['devices', q] as const,
  designatedLabs: (serialNumber: string) => ['devices', 'designatedLabs', serialNumber] as const,
  certifiedLabs: ['devices', 'certifiedLabs'] as const,
};
