import { expect, it } from 'vitest';

it('exports exactly this list (a change to the shared internals is deliberate)', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toMatchInlineSnapshot(`
    [
      "closeServer",
      "createEvents",
      "formatUrl",
      "isAtomicTemp",
      "listenServer",
      "monotonicClock",
      "readLimitedBody",
      "removeStaleTemps",
      "sleep",
      "syncDir",
      "systemClock",
      "writeFileAtomic",
    ]
  `);
});
