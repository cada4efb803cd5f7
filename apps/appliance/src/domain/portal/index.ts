// Captive portal: the settings form served while the provisioning AP is up

export { MAX_BODY_BYTES, parseFormBody } from './body.js';
export { csrfMatches } from './csrf.js';
export { escapeHtml, networksForForm } from './html.js';
export {
  type ConnectRequest,
  createPortal,
  type Portal,
  type PortalOptions,
  type PortalSession,
  readConnect,
} from './portal.js';
