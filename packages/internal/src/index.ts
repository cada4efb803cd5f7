// @waved/internal: shared by the waved packages and bundled into each of them (never published).

// Files that matter
export {
  type AtomicFs,
  isAtomicTemp,
  removeStaleTemps,
  syncDir,
  type WriteFileAtomicOptions,
  writeFileAtomic,
} from './atomic.js';
// Servers
export { type BodySource, type LimitedBody, readLimitedBody } from './body.js';
// Contracts every package accepts
export {
  type Clock,
  type Logger,
  monotonicClock,
  sleep,
  systemClock,
  type TimerHandle,
} from './contracts.js';
// Events
export { createEvents, type Events, type Subscribable } from './events.js';
export { closeServer, formatUrl, type Listening, type ListenOptions, listenServer } from './listen.js';
