import type { App } from '@slack/bolt';
import type { ChatServices } from '../../../services.js';
import { rolloutDoctorCommand } from './rollout-doctor.js';

/** Slash command name → callback. The command string appears only here (and in slack/manifest.yaml). */
export function registerCommands(app: App, services: ChatServices): void {
  app.command('/rollout-doctor', rolloutDoctorCommand(services));
}
