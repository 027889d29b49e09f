import { SharedPage } from './SharedPage';

/** /order-show?code=…: a shared order (spec §2). */
export default function OrderShowPage() {
  return <SharedPage />;
}
