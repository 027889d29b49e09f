// What other features may use of own space's account parts. The tab panels and public pages are loaded lazily.
export { AvatarField } from './components/AvatarField';
export { AccountNameField } from './components/AccountNameField';
export { EmailField } from './components/EmailField';
export { editUser } from './api/account';
