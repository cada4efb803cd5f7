// The reduced provisioning scenario (npm test on x64): boot, `waved start` on a blank root to READY=1,
// the setup network from the screen, one provisioning with a real WPA2 handshake, the cloud after
// Connected, a clean stop. See provisioning.mjs.
process.env.WAVED_E2E_REDUCED = '1';
await import('./provisioning.mjs');
