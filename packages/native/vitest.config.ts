import { defineConfig } from 'vitest/config';

// Lab tests need a peer (cross compilers, qemu-user) or run the addon against real sockets with
// needs() from @waved/test-lab: `npm run test:lab`, never cached. The rest are unit tests:
// `npm run test:unit`, cached by turbo.
const lab = ['test/arp.test.ts', 'test/prebuilds.test.ts', 'test/qemu.test.ts', 'test/unix-dgram.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', '@waved/test-lab/reporter'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: lab, provide: { testKind: 'unit' } },
      },
      { extends: true, test: { name: 'lab', include: lab, provide: { testKind: 'lab' } } },
    ],
  },
});
