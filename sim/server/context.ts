/** What request handlers share: the store, container logs, and the write path. */
import type { LogStore } from '../logs.js';
import type { Store } from '../store.js';

export interface ApiContext {
  store: Store;
  logs: LogStore;
}
