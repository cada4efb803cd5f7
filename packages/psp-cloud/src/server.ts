// @waved/psp-cloud/server — the reference cloud server.
import './node-guard.js';

export {
  type CloudServer,
  type CloudServerErrorCode,
  type CloudServerLimits,
  type CloudServerOptions,
  createCloudServer,
  type InterceptedRequest,
  type ListeningServer,
  type ListenOptions,
  type OtaRelease,
  type ReceivedNotice,
  type ReceivedUpload,
  type RegisteredDevice,
  type UploadStats,
} from './cloud-server.js';
export { DEFAULT_ROUTES, type RouteName, type RouteSpec, type RouteTable, resolveRoutes } from './routes.js';
