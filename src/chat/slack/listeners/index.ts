import type { App } from '@slack/bolt';
import type { ChatServices } from '../../services.js';
import type { SlackConfig } from '../../../config/slack.js';
import { registerActions } from './actions/index.js';
import { registerCommands } from './commands/index.js';
import { registerOriginCheck } from './origin-check.js';

/** Registers every Slack listener. */
export function registerListeners(app: App, services: ChatServices, slack: SlackConfig): void {
  // First: no listener runs for a payload from another workspace or app.
  registerOriginCheck(app, slack, services.logger);
  registerCommands(app, services);
  registerActions(app, services);
}
