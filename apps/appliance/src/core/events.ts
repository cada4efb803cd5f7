import { EventEmitter } from 'node:events';

/** What a component hands its consumers: subscribing only; emitting stays inside the component. */
export interface Subscribable<E extends Record<keyof E, unknown[]>> {
  /** Calls `fn` on every `name` event; the returned function unsubscribes it. */
  on<K extends keyof E & string>(name: K, fn: (...args: E[K]) => void): () => void;
  /** Calls `fn` on the next `name` event only; the returned function unsubscribes it before. */
  once<K extends keyof E & string>(name: K, fn: (...args: E[K]) => void): () => void;
}

/** A component's events: `on`/`once` for its consumers, `emit` and `listenerCount` for itself. */
export interface Events<E extends Record<keyof E, unknown[]>> extends Subscribable<E> {
  emit<K extends keyof E & string>(name: K, ...args: E[K]): void;
  listenerCount(name: keyof E & string): number;
}

export function createEvents<E extends Record<keyof E, unknown[]>>(): Events<E> {
  const emitter = new EventEmitter();
  return {
    on(name, fn) {
      const listener = fn as (...args: unknown[]) => void;
      emitter.on(name, listener);
      return () => {
        emitter.off(name, listener);
      };
    },
    once(name, fn) {
      const listener = fn as (...args: unknown[]) => void;
      emitter.once(name, listener);
      return () => {
        emitter.off(name, listener);
      };
    },
    emit(name, ...args) {
      emitter.emit(name, ...args);
    },
    listenerCount: (name) => emitter.listenerCount(name),
  };
}
