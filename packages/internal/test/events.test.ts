import { describe, expect, it } from 'vitest';
import { createEvents } from '../src/index.js';

interface TestEvents {
  data: [value: number, label: string];
  end: [];
}

describe('createEvents', () => {
  it('on() delivers every event with its arguments until the returned function unsubscribes', () => {
    const events = createEvents<TestEvents>();
    const seen: string[] = [];
    const off = events.on('data', (value, label) => seen.push(`${label}=${value}`));
    events.emit('data', 1, 'a');
    events.emit('data', 2, 'b');
    off();
    events.emit('data', 3, 'c');
    expect(seen).toEqual(['a=1', 'b=2']);
    expect(events.listenerCount('data')).toBe(0);
  });

  it('once() delivers the next event only, and its unsubscribe works before that event', () => {
    const events = createEvents<TestEvents>();
    let ends = 0;
    events.once('end', () => ends++);
    events.emit('end');
    events.emit('end');
    expect(ends).toBe(1);
    const cancel = events.once('end', () => ends++);
    cancel();
    events.emit('end');
    expect(ends).toBe(1);
    expect(events.listenerCount('end')).toBe(0);
  });

  it('off() removes a listener added with on() or once()', () => {
    const events = createEvents<TestEvents>();
    const seen: number[] = [];
    const a = (value: number) => seen.push(value);
    const b = (value: number) => seen.push(-value);
    events.on('data', a);
    events.once('data', b);
    events.off('data', a);
    events.off('data', b);
    events.emit('data', 5, 'x');
    expect(seen).toEqual([]);
  });
});
