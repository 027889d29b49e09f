// What other features may use of registration. Everything else in this folder is the feature's own.
export { default as RegisterWayPage } from './pages/RegisterWayPage';
