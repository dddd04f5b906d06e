import type { App } from '@slack/bolt';
import type { AppServices } from '../../../../app/services.js';
import { rolloutDoctorCommand } from './rollout-doctor.js';

/** Slash command name → callback. The command string appears only here (and in slack/manifest.yaml). */
export function registerCommands(app: App, services: AppServices): void {
  app.command('/rollout-doctor', rolloutDoctorCommand(services));
}
