/** Registers the simulator's controllers with a manager. */
import type { ControllerManager } from './manager.js';

/** Adds every controller to the manager. */
export function startControllers(manager: ControllerManager): void {
  void manager;
}
