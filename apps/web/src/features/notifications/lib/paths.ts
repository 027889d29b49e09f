/** The order detail route (menu orderDetail, /order-management/detail/:id with id = orderCode). */
export function orderDetailPath(orderCode: string): string {
  return `/order-management/detail/${encodeURIComponent(orderCode)}`;
}
