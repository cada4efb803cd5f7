// The signal classes come from @waved/wpa-cli (one set of thresholds for the whole project).
export { classifySignal, SIGNAL_EXCELLENT_DBM, SIGNAL_FAIR_DBM, SIGNAL_GOOD_DBM } from '@waved/wpa-cli';
