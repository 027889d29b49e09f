import type { z } from 'zod';
import type { EditUserBody, Language, UserDetail } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http, postForm } from '../../../lib/http';
import { accountKeys } from './keys';

export type { UserDetail };
export type EditUser = z.input<typeof EditUserBody> & { language?: Language };

export const getUserDetail = () => http.post<UserDetail>('user/getUserDetail');
export const userDetailQuery = () => queryOptions({ queryKey: accountKeys.detail, queryFn: getUserDetail });

// Silent: the form writes a refusal under the field it names (lib/formErrors).
export const editUser = (body: EditUser) => http.write<UserDetail>('user/edit', body, { silent: true });
export const editUsername = (account: string) => http.write<UserDetail>('user/edit_username', { account });
/** Asks for the password first when it was not given in the last 15 minutes (the http client prompts). */
export const editEmail = (email: string) => http.write<{ pendingEmail: string }>('user/edit_email', { email });
export const confirmEmailChange = (id: string) =>
  http.write<{ email: string }>('user/edit_email/confirm', { id }, { auth: false, silent: true });

export function editAvatar(image: Blob): Promise<{ avatar: string }> {
  const form = new FormData();
  form.append('file', image, `avatar.${image.type === 'image/jpeg' ? 'jpg' : (image.type.split('/')[1] ?? 'png')}`);
  return postForm('user/edit_avatar', form);
}

/** The receive email tab: mails on or off, and station letters or SMS. */
export const updateReceiving = (body: { receiveEmail?: boolean; msgReceiveType?: 'station' | 'sms' }) =>
  http.write<unknown>('user/update', body);
