'use strict';
// Ports for the servers tests start (stacks, embedded runs, relays): one picker for every test process.
//
// A port the OS hands out for listen(0) comes from its ephemeral range (ip_local_port_range), the same range every
// outgoing connection takes its local port from. Between the probe's close and the app's bind, a connection to
// PostgreSQL, Redis or RabbitMQ of any test running alongside can take that port, and the app then fails with
// EADDRINUSE (CI on 1 December: a timing-service's health port). So a port is picked at random below that range, where
// no outgoing connection goes, probed on every IPv4 interface, and never handed out twice by one process. Parallel test
// processes pick at random from thousands of ports, so two of them rarely choose the same one in the same moment.
const fs = require('node:fs');
const net = require('node:net');

/** The lowest port of the OS's ephemeral range (32768 when it cannot be read, Linux's default). */
function ephemeralLow() {
  try {
    const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 1024 ? low : 32768;
  } catch {
    return 32768;
  }
}

const FIRST = 10000;
const handedOut = new Set();

/** Whether nothing listens on `port` of any IPv4 interface (listening on 0.0.0.0 fails if any address holds it). */
function probe(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '0.0.0.0', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** A port OS-chosen with listen(0): only when the range below the ephemeral ports is too small to pick from. */
function osPort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** A port nothing listens on now, outside the ephemeral range, not handed out before by this process. */
async function freePort() {
  if (ephemeralLow() - FIRST >= 1000) return freePortRun(1);
  // The range below the ephemeral ports too small to pick from: ports the OS chooses.
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = await osPort();
    if (handedOut.has(port) || !(await probe(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error('no free port found in 200 tries');
}

/**
 * The first of `count` consecutive ports nothing listens on now, all outside the ephemeral range, none handed out before
 * by this process (a supervisor's HEALTH_PORT, whose apps take it and the ports after it).
 */
async function freePortRun(count) {
  const last = ephemeralLow() - count;
  const span = last - FIRST + 1;
  if (span < 1000) throw new Error(`no run of ${count} ports below the ephemeral range (${FIRST} to ${ephemeralLow() - 1})`);
  for (let attempt = 0; attempt < 200; attempt++) {
    const first = FIRST + Math.floor(Math.random() * span);
    const ports = Array.from({ length: count }, (_, i) => first + i);
    if (ports.some((port) => handedOut.has(port))) continue;
    let free = true;
    for (const port of ports) if (free) free = await probe(port);
    if (!free) continue;
    for (const port of ports) handedOut.add(port);
    return first;
  }
  throw new Error(`no run of ${count} free ports found in 200 tries (${FIRST} to ${last + count - 1})`);
}

module.exports = { freePort, freePortRun };
