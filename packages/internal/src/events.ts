import { EventEmitter } from 'node:events';

/** What a component hands its consumers: subscribing only; emitting stays inside the component. */
export interface Subscribable<E extends Record<keyof E, unknown[]>> {
  /** Calls `fn` on every `name` event; the returned function unsubscribes it. */
  on<K extends keyof E & string>(name: K, fn: (...args: E[K]) => void): () => void;
  /** Calls `fn` on the next `name` event only; the returned function unsubscribes it before. */
  once<K extends keyof E & string>(name: K, fn: (...args: E[K]) => void): () => void;
}

/** A component's events: `on`/`once` for its consumers; `emit`, `off` and `listenerCount` for itself. */
export interface Events<E extends Record<keyof E, unknown[]>> extends Subscribable<E> {
  emit<K extends keyof E & string>(name: K, ...args: E[K]): void;
  /** Removes `fn` (for a component that still offers a 0.1-style `off`). */
  off<K extends keyof E & string>(name: K, fn: (...args: E[K]) => void): void;
  listenerCount(name: keyof E & string): number;
}

/** The one implementation of the events convention: typed `on(name, fn) → off`, no `emit()` handed out. */
export function createEvents<E extends Record<keyof E, unknown[]>>(): Events<E> {
  const emitter = new EventEmitter();
  type Listener = (...args: unknown[]) => void;
  const remove = (name: string, fn: Listener) => {
    emitter.off(name, fn);
  };
  return {
    on(name, fn) {
      const listener = fn as Listener;
      emitter.on(name, listener);
      return () => remove(name, listener);
    },
    once(name, fn) {
      const listener = fn as Listener;
      emitter.once(name, listener);
      return () => remove(name, listener);
    },
    emit(name, ...args) {
      emitter.emit(name, ...args);
    },
    off: (name, fn) => remove(name, fn as Listener),
    listenerCount: (name) => emitter.listenerCount(name),
  };
}
