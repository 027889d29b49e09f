import { useEffect, useRef, useState } from 'react';
import { Modal, Slider, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useBackClose } from '../../../lib/useBackClose';
import { clampCrop, initialCrop, sourceSquare, zoomTo, ZOOM_MAX, type Crop } from '../lib/crop';

/** The view the user crops in (CSS pixels) and the size of the avatar that is uploaded. */
const VIEW = 240;
const OUTPUT = 256;

/** Crops a picked image to a square: drag (or arrow keys) to move, the slider to zoom. */
export function AvatarCropper({
  file,
  busy,
  onCancel,
  onDone,
}: {
  file: File;
  busy: boolean;
  onCancel: () => void;
  onDone: (image: Blob) => void;
}) {
  const { t } = useTranslation('account');
  const canvas = useRef<HTMLCanvasElement>(null);
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  const [failed, setFailed] = useState(false);
  const [crop, setCrop] = useState<Crop>({ zoom: 1, x: 0, y: 0 });
  const drag = useRef<{ px: number; py: number; x: number; y: number } | null>(null);
  useBackClose(true, onCancel);

  useEffect(() => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => {
      setImage(img);
      setCrop(initialCrop(size(img), VIEW));
    };
    img.onerror = () => setFailed(true);
    img.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file]);

  useEffect(() => {
    const c = canvas.current;
    if (!c || !image) return;
    const ratio = window.devicePixelRatio || 1;
    c.width = VIEW * ratio;
    c.height = VIEW * ratio;
    draw(c, image, crop, c.width);
  }, [image, crop]);

  const move = (dx: number, dy: number, from = crop) =>
    image && setCrop(clampCrop({ ...from, x: from.x + dx, y: from.y + dy }, size(image), VIEW));

  const save = () => {
    if (!image) return;
    const out = document.createElement('canvas');
    out.width = OUTPUT;
    out.height = OUTPUT;
    draw(out, image, crop, OUTPUT);
    out.toBlob((blob) => blob && onDone(blob), 'image/png');
  };

  return (
    <Modal
      open
      title={t('avatar.cropTitle')}
      onCancel={onCancel}
      onOk={save}
      okText={t('avatar.save')}
      okButtonProps={{ disabled: !image, loading: busy, 'data-testid': 'avatar-crop-save' }}
      destroyOnHidden
      width={340}
    >
      {failed ? (
        <p role="alert">{t('avatar.unreadable')}</p>
      ) : !image ? (
        <Spin />
      ) : (
        <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 8 }}>
          <canvas
            ref={canvas}
            data-testid="avatar-crop-canvas"
            tabIndex={0}
            role="img"
            aria-label={t('avatar.cropHint')}
            style={{ width: VIEW, height: VIEW, borderRadius: '50%', cursor: 'grab', touchAction: 'none' }}
            onPointerDown={(e) => {
              e.currentTarget.setPointerCapture(e.pointerId);
              drag.current = { px: e.clientX, py: e.clientY, x: crop.x, y: crop.y };
            }}
            onPointerMove={(e) => {
              const d = drag.current;
              if (d) move(e.clientX - d.px, e.clientY - d.py, { ...crop, x: d.x, y: d.y });
            }}
            onPointerUp={() => (drag.current = null)}
            onPointerCancel={() => (drag.current = null)}
            onKeyDown={(e) => {
              const step = e.shiftKey ? 20 : 5;
              const arrows: Record<string, [number, number]> = {
                ArrowLeft: [step, 0],
                ArrowRight: [-step, 0],
                ArrowUp: [0, step],
                ArrowDown: [0, -step],
              };
              const d = arrows[e.key];
              if (!d) return;
              e.preventDefault();
              move(d[0], d[1]);
            }}
          />
          <Typography.Text type="secondary">{t('avatar.cropHint')}</Typography.Text>
          <Slider
            min={1}
            max={ZOOM_MAX}
            step={0.05}
            value={crop.zoom}
            onChange={(zoom) => setCrop(zoomTo(crop, zoom, size(image), VIEW))}
            tooltip={{ open: false }}
            style={{ width: '100%' }}
            aria-label={t('avatar.zoom')}
            data-testid="avatar-zoom"
          />
        </div>
      )}
    </Modal>
  );
}

const size = (img: HTMLImageElement) => ({ width: img.naturalWidth, height: img.naturalHeight });

/** Draws the cropped square of the image onto a square canvas of `pixels`. */
function draw(target: HTMLCanvasElement, image: HTMLImageElement, crop: Crop, pixels: number) {
  const ctx = target.getContext('2d');
  if (!ctx) return;
  const { sx, sy, size: side } = sourceSquare(crop, size(image), VIEW);
  ctx.imageSmoothingQuality = 'high';
  ctx.clearRect(0, 0, pixels, pixels);
  ctx.drawImage(image, sx, sy, side, side, 0, 0, pixels, pixels);
}
