import type { AlertNotifyHooks } from './alerts/hooks.js';
import type { ChatServices } from '../chat/services.js';

/** The chat port's services (src/chat/services.ts) and the alert side, for the app's routes and notify consumer. */
export interface AppServices extends ChatServices {
  /** Alert threads (src/app/alerts); absent when alert intake is not configured. */
  alerts?: AlertNotifyHooks;
}
