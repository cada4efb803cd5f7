// Time as every waved package takes it: the shared `Clock`, `{ now(), setTimeout(fn, ms), clearTimeout(handle) }`.
export { type Clock, systemClock } from '@waved/internal';

/** Sets the system clock (CAP_SYS_TIME on a device; a log line in the simulator). */
export type SetClock = (date: Date) => Promise<void>;
