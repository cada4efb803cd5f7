export { type ManualClock, manualClock } from './clock.js';
export { listenLoopback, SPEC_CLOUD_POST_HEADERS } from './cloud.js';
export { LabError, type LabErrorCode } from './errors.js';
export { type ExecResult, exec, killPid, type Peer, startPeer, stopAllPeers } from './exec.js';
export { type Gate, hasProgram, isCi, needs, type Requirement, SKIP_MARK } from './needs.js';
export { createNetns, createVethPair, ifindex, type Netns, removeAllNetns } from './netns.js';
export { readmeCodeBlocks, runReadmeExample } from './readme.js';
export { freePort, tempDir } from './tmp.js';
export { readPidFile, waitFor, waitForPath, waitForTcp } from './wait.js';
