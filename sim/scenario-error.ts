/** A scenario the simulator cannot start from (unreadable, not YAML, empty, an object it cannot store): bad input. */
export class ScenarioError extends Error {
  override name = 'ScenarioError';
}
