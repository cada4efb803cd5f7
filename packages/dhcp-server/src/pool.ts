import { formatIpv4 } from './ipv4.js';

/** What an address in the pool is doing. `released` and `expired` addresses are free to reuse. */
export type LeaseState = 'offered' | 'bound' | 'released' | 'expired' | 'declined';

/** One address and the client that holds it (or held it last). */
export interface DhcpLease {
  address: string;
  /** Lowercase hex of the client identity: option 61, else htype followed by chaddr (RFC 2131 §4.2). */
  clientId: string;
  /** `aa:bb:cc:dd:ee:ff` from chaddr. */
  hardwareAddress: string;
  hostname?: string;
  state: LeaseState;
  /** ms since the epoch: end of the offer hold, the lease or the DECLINE quarantine. */
  expiresAt: number;
}

const FREE = 0;
const OFFERED = 1;
const BOUND = 2;
const DECLINED = 3;
const RELEASED = 4;
const EXCLUDED = 5;

const NAMES: Record<number, LeaseState> = {
  [OFFERED]: 'offered',
  [BOUND]: 'bound',
  [DECLINED]: 'declined',
  [RELEASED]: 'released',
};

export interface ClientInfo {
  hardwareAddress: string;
  hostname?: string;
}

/**
 * The address pool: a contiguous range, one slot per address, plus an index from client identity to
 * the slot that client holds or held last (so a returning client gets its address back, RFC 2131
 * §4.3.1). Time is passed in by the caller; expiry is applied lazily, so nothing needs a timer.
 */
export class LeasePool {
  readonly first: number;
  readonly size: number;
  private readonly state: Uint8Array;
  private readonly expires: Float64Array;
  private readonly owner: (string | undefined)[];
  private readonly info: (ClientInfo | undefined)[];
  private readonly lapsed: Uint8Array;
  private readonly byClient = new Map<string, number>();
  private cursor = 0;
  /** Bumped on every change a store should see. */
  version = 0;
  /** Bumped when an address changes hands (bind, release, decline): a store must save it promptly. */
  durable = 0;

  constructor(first: number, last: number, excluded: readonly number[] = []) {
    this.first = first;
    this.size = last - first + 1;
    this.state = new Uint8Array(this.size);
    this.expires = new Float64Array(this.size);
    this.lapsed = new Uint8Array(this.size);
    this.owner = new Array(this.size).fill(undefined);
    this.info = new Array(this.size).fill(undefined);
    for (const a of excluded) if (this.contains(a)) this.state[a - first] = EXCLUDED;
  }

  contains(address: number): boolean {
    return address >= this.first && address < this.first + this.size;
  }

  /** The slot's state at `now`, with lapsed offers/leases/quarantines turned free. */
  private live(i: number, now: number): number {
    const s = this.state[i]!;
    if ((s === OFFERED || s === BOUND || s === DECLINED) && this.expires[i]! <= now) {
      const next = s === DECLINED ? FREE : RELEASED;
      this.state[i] = next;
      if (s === DECLINED) this.owner[i] = undefined;
      else this.lapsed[i] = 1;
      return next;
    }
    return s;
  }

  private isFree(s: number): boolean {
    return s === FREE || s === RELEASED;
  }

  /** The address this client holds (offered or bound, not lapsed), or -1. */
  current(client: string, now: number): number {
    const i = this.byClient.get(client);
    if (i === undefined || this.owner[i] !== client) return -1;
    const s = this.live(i, now);
    return s === OFFERED || s === BOUND ? this.first + i : -1;
  }

  /** The client's current or previous address, or -1 when we have no record of the client. */
  known(client: string): number {
    const i = this.byClient.get(client);
    return i !== undefined && this.owner[i] === client ? this.first + i : -1;
  }

  isBoundTo(address: number, client: string, now: number): boolean {
    const i = address - this.first;
    return this.contains(address) && this.owner[i] === client && this.live(i, now) === BOUND;
  }

  /** True when `client` may take `address` now: it is ours to give and nobody else holds it. */
  available(address: number, client: string, now: number): boolean {
    if (!this.contains(address)) return false;
    const i = address - this.first;
    const s = this.live(i, now);
    if (s === EXCLUDED || s === DECLINED) return false;
    if (this.isFree(s)) return true;
    return this.owner[i] === client;
  }

  /**
   * Picks an address for a DISCOVER (RFC 2131 §4.3.1): the client's current binding, its previous
   * one, the requested address if it is free, then a never-used address, then the free address
   * whose last holder left longest ago. Returns -1 when the pool is exhausted; the search visits
   * each slot at most twice, so a full pool can never loop.
   */
  choose(client: string, requested: number, now: number): number {
    const mine = this.byClient.get(client);
    if (mine !== undefined && this.owner[mine] === client) {
      const s = this.live(mine, now);
      if (s === OFFERED || s === BOUND || this.isFree(s)) return this.first + mine;
    }
    if (requested !== 0 && this.available(requested, client, now)) return requested;
    let oldest = -1;
    let oldestAt = Number.POSITIVE_INFINITY;
    for (let n = 0; n < this.size; n++) {
      const i = (this.cursor + n) % this.size;
      const s = this.live(i, now);
      if (s === FREE) {
        this.cursor = (i + 1) % this.size;
        return this.first + i;
      }
      if (s === RELEASED && this.expires[i]! < oldestAt) {
        oldest = i;
        oldestAt = this.expires[i]!;
      }
    }
    return oldest < 0 ? -1 : this.first + oldest;
  }

  private take(address: number, client: string, state: number, until: number, info: ClientInfo): void {
    const i = address - this.first;
    const previousOwner = this.owner[i];
    if (previousOwner !== undefined && previousOwner !== client && this.byClient.get(previousOwner) === i) {
      this.byClient.delete(previousOwner);
    }
    const before = this.byClient.get(client);
    if (before !== undefined && before !== i && this.owner[before] === client) {
      // A client holds one address: moving it frees the old one.
      const s = this.state[before];
      if (s === OFFERED || s === BOUND) this.state[before] = RELEASED;
      this.owner[before] = undefined;
      this.info[before] = undefined;
    }
    this.state[i] = state;
    this.expires[i] = until;
    this.lapsed[i] = 0;
    this.owner[i] = client;
    this.info[i] = info;
    this.byClient.set(client, i);
    this.version++;
  }

  /** `info(arg)` describes the client, called only when a new holder takes the slot (no closure per call). */
  offer<T>(address: number, client: string, until: number, info: (arg: T) => ClientInfo, arg: T): void {
    const i = address - this.first;
    if (this.owner[i] === client) {
      const s = this.state[i];
      // Never shorten a binding by re-offering it; a repeated DISCOVER only extends the hold.
      if (s === BOUND && this.expires[i]! > until) return;
      if (s === OFFERED) {
        this.expires[i] = until;
        return;
      }
    }
    this.take(address, client, OFFERED, until, info(arg));
  }

  /** Binds (or renews) `address` for `client`. A renewal changes only the expiry. */
  bind<T>(address: number, client: string, until: number, info: (arg: T) => ClientInfo, arg: T): void {
    const i = address - this.first;
    if (this.owner[i] === client && this.state[i] === BOUND) {
      this.expires[i] = until;
      this.info[i] = info(arg);
      this.version++;
      return;
    }
    this.take(address, client, BOUND, until, info(arg));
    this.durable++;
  }

  /** Drops an offer silently (RFC 2131 §4.3.2: the client chose another server). */
  withdraw(client: string, now: number): boolean {
    const i = this.byClient.get(client);
    if (i === undefined || this.owner[i] !== client || this.live(i, now) !== OFFERED) return false;
    this.state[i] = RELEASED;
    this.expires[i] = now;
    this.lapsed[i] = 0;
    this.version++;
    return true;
  }

  /** RFC 2131 §4.3.4: the address becomes free; the client record stays for next time. */
  release(address: number, client: string, now: number): boolean {
    const i = address - this.first;
    if (!this.contains(address) || this.owner[i] !== client) return false;
    const s = this.live(i, now);
    if (s !== BOUND && s !== OFFERED) return false;
    this.state[i] = RELEASED;
    this.expires[i] = now;
    this.lapsed[i] = 0;
    this.version++;
    this.durable++;
    return true;
  }

  /** RFC 2131 §4.3.3: the address is in use by someone else; keep it out of the pool until `until`. */
  decline(address: number, until: number): void {
    const i = address - this.first;
    const owner = this.owner[i];
    if (owner !== undefined && this.byClient.get(owner) === i) this.byClient.delete(owner);
    this.owner[i] = undefined;
    this.info[i] = undefined;
    this.state[i] = DECLINED;
    this.expires[i] = until;
    this.version++;
    this.durable++;
  }

  /** Counts by state at `now`. */
  counts(now: number): { free: number; offered: number; bound: number; declined: number } {
    const c = { free: 0, offered: 0, bound: 0, declined: 0 };
    for (let i = 0; i < this.size; i++) {
      const s = this.live(i, now);
      if (s === OFFERED) c.offered++;
      else if (s === BOUND) c.bound++;
      else if (s === DECLINED) c.declined++;
      else if (s !== EXCLUDED) c.free++;
    }
    return c;
  }

  /** Every slot with a holder or a quarantine, as plain records (for `leases()` and the store). */
  list(now: number): DhcpLease[] {
    const out: DhcpLease[] = [];
    for (let i = 0; i < this.size; i++) {
      const s = this.live(i, now);
      if (s === FREE || s === EXCLUDED) continue;
      if (s === RELEASED && this.owner[i] === undefined) continue;
      const info = this.info[i];
      const lease: DhcpLease = {
        address: formatIpv4(this.first + i),
        clientId: this.owner[i] ?? '',
        hardwareAddress: info?.hardwareAddress ?? '',
        state: s === RELEASED ? (this.lapsed[i] ? 'expired' : 'released') : NAMES[s]!,
        expiresAt: this.expires[i]!,
      };
      if (info?.hostname !== undefined) lease.hostname = info.hostname;
      out.push(lease);
    }
    return out;
  }

  /** Restores records from a store. Records outside the pool, or lapsed quarantines, are ignored. */
  restore(records: readonly DhcpLease[], parse: (a: string) => number, now: number): number {
    let n = 0;
    for (const r of records) {
      let address: number;
      try {
        address = parse(r.address);
      } catch {
        continue;
      }
      if (!this.contains(address) || this.state[address - this.first] === EXCLUDED) continue;
      const until = Number(r.expiresAt);
      if (!Number.isFinite(until)) continue;
      const info: ClientInfo = { hardwareAddress: String(r.hardwareAddress ?? '') };
      if (typeof r.hostname === 'string') info.hostname = r.hostname;
      if (r.state === 'declined') {
        if (until > now) this.decline(address, until);
      } else if (typeof r.clientId === 'string' && /^[0-9a-f]+$/.test(r.clientId)) {
        // Offers are not worth keeping across a restart; bound leases and remembered clients are.
        const state = r.state === 'bound' && until > now ? BOUND : RELEASED;
        this.take(address, r.clientId, state, until, info);
      } else continue;
      n++;
    }
    return n;
  }
}
