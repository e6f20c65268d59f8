/** Single sign-on for the server's routes (apps/server/src/plugins/single-sign-on.ts). */
export { SingleSignOnRefused as SingleSignOnRefusedError } from './single-sign-on.ts';
export { SsoService, type SsoSettings } from './sso-service.ts';
