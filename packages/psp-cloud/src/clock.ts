// The Clock and Logger every waved package accepts (shared, bundled from @waved/internal).
export { type Clock, type Logger, sleep, systemClock } from '@waved/internal';
