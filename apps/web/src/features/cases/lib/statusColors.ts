/** antd Tag colours of the case statuses (the case list and the dashboard's recent cases). */
export const CASE_STATUS_COLORS: Record<string, string> = {
  registered: 'default',
  toBeProgressed: 'gold',
  scanCompleted: 'cyan',
  uploaded: 'blue',
  ordered: 'geekblue',
  completed: 'green',
  sent: 'purple',
  notSent: 'orange',
  accepted: 'green',
  rejected: 'red',
  ready: 'lime',
  shipped: 'magenta',
};
