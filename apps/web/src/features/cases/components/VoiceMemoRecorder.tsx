import { useEffect, useRef, useState } from 'react';
import { Button, Space, Typography } from 'antd';
import AudioOutlined from '@ant-design/icons/AudioOutlined';
import { useTranslation } from 'react-i18next';
import { microphoneFailureKey, voiceMemoName } from '../lib/voiceMemo';

/** Records a voice memo in the browser; the recording goes to the case like any other file. */
export function VoiceMemoRecorder({ onRecorded }: { onRecorded: (file: File) => void }) {
  const { t } = useTranslation('cases');
  const [recording, setRecording] = useState(false);
  const [seconds, setSeconds] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const timer = useRef<number>(undefined);

  // Leaving the page stops the microphone.
  useEffect(
    () => () => {
      window.clearInterval(timer.current);
      recorder.current?.stream.getTracks().forEach((track) => track.stop());
    },
    [],
  );

  const start = async () => {
    setError(null);
    let stream: MediaStream;
    try {
      if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined')
        throw new DOMException('', 'NotFoundError');
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (err) {
      setError(t(microphoneFailureKey(err)));
      return;
    }
    const chunks: Blob[] = [];
    const rec = new MediaRecorder(
      stream,
      MediaRecorder.isTypeSupported('audio/webm;codecs=opus') ? { mimeType: 'audio/webm;codecs=opus' } : undefined,
    );
    rec.ondataavailable = (e) => chunks.push(e.data);
    rec.onstop = () => {
      stream.getTracks().forEach((track) => track.stop());
      window.clearInterval(timer.current);
      setRecording(false);
      if (chunks.length) onRecorded(new File(chunks, voiceMemoName(new Date()), { type: 'audio/webm' }));
    };
    rec.start();
    recorder.current = rec;
    setSeconds(0);
    setRecording(true);
    timer.current = window.setInterval(() => setSeconds((s) => s + 1), 1000);
  };

  return (
    <Space wrap style={{ marginTop: 12 }}>
      {recording ? (
        <Button
          danger
          icon={<AudioOutlined aria-hidden />}
          data-testid="voice-stop"
          onClick={() => recorder.current?.stop()}
        >
          {t('voice.stop', { seconds })}
        </Button>
      ) : (
        <Button icon={<AudioOutlined aria-hidden />} data-testid="voice-record" onClick={() => void start()}>
          {t('voice.record')}
        </Button>
      )}
      {error ? (
        <Typography.Text type="danger" data-testid="voice-error">
          {error}
        </Typography.Text>
      ) : null}
    </Space>
  );
}
