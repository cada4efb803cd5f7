// Runs verifySwu once in a fresh process, as the appliance does before an install, and prints its
// time, CPU and peak RSS as JSON. argv: <file.swu> <md5> [certificate.pem] [hardware revision]
import { verifySwu } from '@waved/swu-ota';

const [file, md5, certificate, hardwareRevision] = process.argv.slice(2);
const t = performance.now();
const report = await verifySwu(file, {
  md5,
  ...(certificate ? { certificate } : {}),
  ...(hardwareRevision ? { hardwareRevision } : {}),
});
const ms = performance.now() - t;
const ru = process.resourceUsage();
console.log(
  JSON.stringify({
    ms,
    cpuMs: (ru.userCPUTime + ru.systemCPUTime) / 1000,
    maxRssMb: ru.maxRSS / 1024,
    md5: report.md5,
    size: report.size,
    images: report.images.length,
    signatureVerified: report.signatureVerified,
  }),
);
