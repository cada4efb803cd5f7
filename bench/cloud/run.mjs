// The signed cloud client has no external peer; its benchmark (in the package) compares signing and
// signed round trips with in-run baselines (bare HMAC, unsigned requests) and reports telemetry rates.
import '../../packages/psp-cloud/bench/run.mjs';
