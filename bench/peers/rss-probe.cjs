// Preloaded into every Node process `npm run bench` measures when /usr/bin/time is missing
// (NODE_OPTIONS=--require): on exit, appends the process's own peak resident set, in KiB, to the
// file OPENWOP_BENCH_RSS names. The harness takes the largest line (a tool may start Node children).
'use strict';
const { appendFileSync } = require('node:fs');

const target = process.env.OPENWOP_BENCH_RSS;
if (target) {
  process.on('exit', () => {
    try {
      appendFileSync(target, `${process.resourceUsage().maxRSS}\n`);
    } catch {
      // measuring must never change the outcome of the measured command
    }
  });
}
