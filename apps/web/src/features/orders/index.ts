// What other features may use of orders. Everything else in this folder is the feature's own.
export { SendToLabButton } from './components/SendToLabButton';
export { STATUS_COLORS as ORDER_STATUS_COLORS } from './lib/orderRules';
export { orderDetailPath } from './lib/paths';
