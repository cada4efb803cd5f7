/**
 * PBKDF2-HMAC-SHA256 of a device PIN, 32 bytes: the one costly step of checking or recording a PIN
 * (100 000 iterations by default). Where it runs is the adapter's: the domain's default is libuv's
 * thread pool; a device runs it on a thread of its own at the lowest CPU priority
 * (`createLowPriorityPinHash`), so the setup network's DNS and DHCP answers come first.
 */
export type PinHash = (pin: Uint8Array, salt: Uint8Array, iterations: number) => Promise<Buffer>;
