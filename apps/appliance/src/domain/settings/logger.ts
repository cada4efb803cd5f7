// The portal, settings and screens take the appliance's one logger contract.
export { type Logger, silentLogger } from '../../core/log/logger.js';
