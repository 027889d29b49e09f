import { SharedPage } from './SharedPage';

/** /case-show?code=…: a shared case (spec §2). */
export default function CaseShowPage() {
  return <SharedPage />;
}
