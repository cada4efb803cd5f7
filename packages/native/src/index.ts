import './node-guard.js';

// ARP cache
export { type ArpWriter, createArpWriter } from './arp.js';
// Errors
export { isNativeError, NativeError, type NativeErrorCode } from './errors.js';
// Loading
export { nativeStatus } from './load.js';
// Socket options and interface binding
export {
  type BindToDeviceOptions,
  bindToDevice,
  getSocketOption,
  getSocketOptionInt,
  SO_BINDTODEVICE,
  SO_BINDTOIFINDEX,
  SOL_SOCKET,
  type SocketLike,
  setSocketOption,
  socketFd,
} from './sockopt.js';
// UDP batch transport
export { closeUdpBatch, openUdpBatch, type UdpBatchHandle, type UdpBatchOptions } from './udp-batch.js';
// Unix datagram sockets
export {
  createUnixDatagramSocket,
  type UnixDatagramEvents,
  type UnixDatagramOptions,
  type UnixDatagramSocket,
} from './unix-dgram.js';
