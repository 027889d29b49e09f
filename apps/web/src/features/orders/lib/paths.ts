/** The detail route of an order (menu path /order-management/detail/:id, id = orderCode). */
export function orderDetailPath(orderCode: string): string {
  return `/order-management/detail/${encodeURIComponent(orderCode)}`;
}
export const ORDER_LIST_PATH = '/order-management';
