/** A human problem the demo reports and exits non-zero on, without a stack trace. */
export class DemoError extends Error {
  override name = 'DemoError';
}
