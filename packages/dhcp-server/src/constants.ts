/** BOOTP `op` values (RFC 951, RFC 2131 §2). */
export const BOOTREQUEST = 1;
export const BOOTREPLY = 2;

/** DHCP message types, option 53 (RFC 2132 §9.6). */
export const MessageType = {
  DISCOVER: 1,
  OFFER: 2,
  REQUEST: 3,
  DECLINE: 4,
  ACK: 5,
  NAK: 6,
  RELEASE: 7,
  INFORM: 8,
} as const;
export type MessageTypeName = keyof typeof MessageType;

/** Option codes this package reads or writes (RFC 2132, RFC 8910). */
export const Option = {
  PAD: 0,
  SUBNET_MASK: 1,
  ROUTER: 3,
  DNS: 6,
  HOSTNAME: 12,
  BROADCAST_ADDRESS: 28,
  REQUESTED_ADDRESS: 50,
  LEASE_TIME: 51,
  OVERLOAD: 52,
  MESSAGE_TYPE: 53,
  SERVER_ID: 54,
  PARAMETER_LIST: 55,
  MESSAGE: 56,
  MAX_MESSAGE_SIZE: 57,
  RENEWAL_TIME: 58,
  REBINDING_TIME: 59,
  CLIENT_ID: 61,
  CAPTIVE_PORTAL: 114,
  END: 255,
} as const;

/** The magic cookie 99.130.83.99 that starts the options field (RFC 2131 §3, RFC 2132 §2). */
export const MAGIC_COOKIE = 0x63825363;

/** Fixed BOOTP header plus the magic cookie. */
export const HEADER_BYTES = 240;
/** RFC 1542 §3.2.1 / RFC 2131 §2: a BOOTP message is at least 300 bytes; shorter replies are padded. */
export const BOOTP_MIN_BYTES = 300;
/** RFC 2131 §2: every client accepts a 576-byte IP datagram (20 IP + 8 UDP + 548 DHCP). */
export const DEFAULT_MAX_DATAGRAM = 576;
export const IP_UDP_OVERHEAD = 28;

/** Broadcast flag in `flags` (RFC 2131 §2, figure 2). */
export const BROADCAST_FLAG = 0x8000;
