import { useEffect } from 'react';
import message from 'antd/es/message';
import Modal from 'antd/es/modal';
import { registerNotifier } from '../lib/notify';

/** Lazy-loaded: themed message and modal instances for code outside React. */
export default function NotifierBridge() {
  const [messageApi, messageHolder] = message.useMessage();
  const [modalApi, modalHolder] = Modal.useModal();
  useEffect(() => registerNotifier(messageApi, modalApi), [messageApi, modalApi]);
  return (
    <>
      {messageHolder}
      {modalHolder}
    </>
  );
}
