import { API_BASE } from '@portal/contracts';
import { http } from '../../../lib/http';

export const captchaInit = () => http.get<{ captchaId: string }>('common/captcha/init', undefined, { auth: false });
export const captchaImageUrl = (captchaId: string) =>
  `${API_BASE}/common/captcha/draw/${encodeURIComponent(captchaId)}`;
