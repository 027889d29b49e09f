import { useState } from 'react';
import { Avatar, Button, Space, Upload } from 'antd';
import UserOutlined from '@ant-design/icons/UserOutlined';
import { useTranslation } from 'react-i18next';
import { AVATAR_TYPES } from '@portal/contracts';
import { patchUser } from '../../../lib/session';
import { notify } from '../../../lib/notify';
import { editAvatar } from '../api/account';
import { AvatarCropper } from './AvatarCropper';

/** Pictures larger than this are refused before cropping (the cropped avatar is small). */
const PICK_MAX_BYTES = 20 * 1024 * 1024;

/** Own space → account info: the avatar, picked, cropped in the browser and uploaded. */
export function AvatarField({ avatar }: { avatar: string | null }) {
  const { t } = useTranslation('account');
  const [picked, setPicked] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);

  const upload = async (image: Blob) => {
    setBusy(true);
    try {
      const saved = await editAvatar(image);
      patchUser({ avatar: saved.avatar });
      setPicked(null);
      notify.success(t('avatar.saved'));
    } catch {
      /* reported by the http client */
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space align="center" size="middle" data-testid="own-avatar">
      <Avatar size={64} src={avatar ?? undefined} icon={<UserOutlined aria-hidden />} alt={t('avatar.alt')} />
      <Upload
        accept={AVATAR_TYPES.join(',')}
        showUploadList={false}
        beforeUpload={(file) => {
          if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) notify.error(t('avatar.wrongType'));
          else if (file.size > PICK_MAX_BYTES) notify.error(t('avatar.tooLarge', { mb: PICK_MAX_BYTES / 1024 / 1024 }));
          else setPicked(file);
          return Upload.LIST_IGNORE;
        }}
      >
        <Button data-testid="avatar-pick">{t('avatar.change')}</Button>
      </Upload>
      {picked ? (
        <AvatarCropper file={picked} busy={busy} onCancel={() => setPicked(null)} onDone={(b) => void upload(b)} />
      ) : null}
    </Space>
  );
}
