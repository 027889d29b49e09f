import { Button, Form, Modal } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useBackClose } from '../../../lib/useBackClose';
import { afterDialogClosed } from '../../../lib/afterDialog';
import { SendToLabForm } from './send/SendToLabForm';
import { SentResult } from './send/SentResult';
import { useSendToLab, type SendToLabOptions } from './send/useSendToLab';
import { DeliveryEstimate, LabProductPicker } from '../../catalogue';
import { LabScorecardLine } from '../../scorecards';

export { suggestedWorkTypes } from './send/useSendToLab';

/**
 * Sends one or more cases to a partner laboratory as one batch (one order per case, all or none).
 * The laboratory's required prescription fields are checked first (see useSendToLab), so a send the server
 * would refuse is stopped with the missing fields named. Three parts: the hook (state and submit), the form,
 * and the result view shown once the dialog has closed.
 */
export default function SendToLabDialog(props: SendToLabOptions) {
  const { open, caseCodes, onClose } = props;
  const { t } = useTranslation('orders');
  const { t: tCatalogue } = useTranslation('catalogue');
  const navigate = useNavigate();
  const send = useSendToLab(props);
  useBackClose(open, onClose);

  return (
    <>
      <Modal
        open={open}
        title={t('send.title', { count: caseCodes.length })}
        width="min(1100px, 96vw)"
        onCancel={onClose}
        destroyOnHidden
        footer={[
          <Button key="cancel" onClick={onClose}>
            {t('common:cancel')}
          </Button>,
          <Button
            key="send"
            type="primary"
            data-testid="send-submit"
            loading={send.sending}
            disabled={send.rulesPending}
            onClick={() => void send.submit()}
          >
            {t('send.submit')}
          </Button>,
        ]}
      >
        <SendToLabForm
          send={send}
          labScorecard={<LabScorecardLine partnerCode={send.partnerCode} />}
          // The laboratory's catalogue: its products, and the delivery date the chosen one would get.
          productPicker={
            <Form.Item label={tCatalogue('picker.label')} htmlFor="send-product">
              <LabProductPicker
                id="send-product"
                partnerCode={send.partnerCode}
                value={send.product}
                onChange={send.chooseProduct}
              />
            </Form.Item>
          }
          deliveryEstimate={
            <DeliveryEstimate
              partnerCode={send.partnerCode}
              productCode={send.product?.productCode}
              requestedDate={send.requestedDate}
            />
          }
        />
      </Modal>
      <SentResult
        orders={send.sent}
        onClose={send.closeSent}
        onOpen={(path) => {
          send.closeSent();
          afterDialogClosed(() => void navigate(path));
        }}
      />
    </>
  );
}
