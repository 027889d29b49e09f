/** The order detail route (menu orderDetail, /order-management/detail/:id with id = orderCode). */
export function orderDetailPath(orderCode: string): string {
  return `/order-management/detail/${encodeURIComponent(orderCode)}`;
}

/** The Chat screen with a conversation open (a chat notice's `code`). */
export function chatConversationPath(conversationCode: string): string {
  return `/chat?conversation=${encodeURIComponent(conversationCode)}`;
}
