import type { App } from '@slack/bolt';
import type { AppServices } from '../services.js';
import { registerActions } from './actions/index.js';
import { registerCommands } from './commands/index.js';

/** Registers every Slack listener. */
export function registerListeners(app: App, services: AppServices): void {
  registerCommands(app, services);
  registerActions(app, services);
}
