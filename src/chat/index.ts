/**
 * The chat port (docs/architecture.md, "The chat port"): the message model, the
 * actions people take, the adapter interface and the builders. Adapters live one per
 * folder beside this file (src/chat/slack/, …) and import this; this imports none.
 */
export * from './model.js';
export * from './actions.js';
export * from './adapter.js';
export * from '../message/rich.js';
