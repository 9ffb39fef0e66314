// Drives the real npm memjs: Client.create("h:p,h:p,...") then Client#server(key) for each key.
// Usage: node driver.js jobs.json   (jobs: [{servers: ["h:p", ...], keys: [...]}])
// Prints one list per job: the chosen server as "host:port" (from the Server object) or null.
// Nothing connects: memjs opens a socket only when a command is sent.
'use strict';
const fs = require('fs');
const memjs = require('memjs');

const jobs = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const out = jobs.map((job) => {
  const client = memjs.Client.create(job.servers.join(','));
  return job.keys.map((key) => {
    const s = client.server(key);
    return s ? s.host + ':' + s.port : null;
  });
});
process.stdout.write(JSON.stringify(out));
