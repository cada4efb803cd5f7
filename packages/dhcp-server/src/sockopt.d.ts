declare module 'sockopt' {
  interface HasFd {
    _handle: { fd: number };
  }
  export function setsockopt(socket: HasFd, level: number, name: number, value: number): void;
  export function getsockopt(socket: HasFd, level: number, name: number): number;
}
