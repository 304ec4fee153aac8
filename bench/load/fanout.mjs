// Opens N Socket.IO clients of one user against a running gateway, then times how long each
// `libraryUpdate` takes to reach every client after the request that causes it.
//
// Usage: node fanout.mjs <base url> <user id> <token> <item id> <clients> <events> <rss file>
// Prints one JSON object on stdout; progress on stderr.
//
// The stock client (socket.io-client, from frontend/node_modules) with one Engine.IO
// connection per client (`forceNew`), in three equal groups: WebSocket only, long-polling
// only, and the default (polling, then the upgrade to WebSocket). Handshakes are ramped so no
// more than MAX_HALF_OPEN sessions are between handshake and CONNECT at once: the gateway
// refuses a 21st unconnected session from one address (429), and this bench works within it.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const require = createRequire(
  new URL("../../frontend/node_modules/", import.meta.url),
);
const { io } = require("socket.io-client");

const [base, userId, token, itemId, clientsArg, eventsArg, rssFile] =
  process.argv.slice(2);
const CLIENTS = Number(clientsArg);
const EVENTS = Number(eventsArg);
const MAX_HALF_OPEN = 15;
const EVENT_GAP_MS = 1000;
const GROUPS = [
  { name: "websocket", options: { transports: ["websocket"] } },
  { name: "polling", options: { transports: ["polling"], upgrade: false } },
  { name: "polling+upgrade", options: { transports: ["polling", "websocket"] } },
];

const log = (message) => process.stderr.write(`[fanout] ${message}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (sorted, q) =>
  sorted.length === 0
    ? null
    : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (v) => (v === null ? null : Math.round(v * 100) / 100);
  return {
    count: sorted.length,
    p50_ms: round(quantile(sorted, 0.5)),
    p99_ms: round(quantile(sorted, 0.99)),
    max_ms: round(sorted.at(-1) ?? null),
  };
};
// CPU seconds (user + system) of the server, from /proc/<pid>/stat beside the status file.
const serverCpuSeconds = () => {
  const fields = readFileSync(rssFile.replace(/status$/, "stat"), "utf8")
    .split(") ")[1]
    .split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
};
const clientCpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
const rssKib = () => {
  const status = readFileSync(rssFile, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
};

const sentAt = new Map(); // event title -> performance.now() before the request
const deliveries = []; // {group, title, ms}
const sockets = [];
let refused = 0;

function open(index) {
  const group = GROUPS[index % GROUPS.length];
  return new Promise((resolve) => {
    const socket = io(base, {
      ...group.options,
      forceNew: true,
      reconnection: false,
      auth: { userId, token },
    });
    socket.on("libraryUpdate", (payload) => {
      const at = performance.now();
      const title = payload?.transcript?.title;
      if (sentAt.has(title)) {
        deliveries.push({ group: group.name, title, ms: at - sentAt.get(title) });
      }
    });
    socket.once("connect", () => resolve(true));
    socket.once("connect_error", (error) => {
      refused += 1;
      log(`client ${index} (${group.name}): ${error.message}`);
      socket.close();
      resolve(false);
    });
    sockets.push({ socket, group: group.name });
  });
}

async function connectAll() {
  const started = performance.now();
  let next = 0;
  let halfOpen = 0;
  let connected = 0;
  await new Promise((done) => {
    const pump = () => {
      while (halfOpen < MAX_HALF_OPEN && next < CLIENTS) {
        halfOpen += 1;
        open(next++).then((ok) => {
          halfOpen -= 1;
          if (ok) connected += 1;
          if (next === CLIENTS && halfOpen === 0) done();
          else pump();
        });
      }
    };
    pump();
  });
  return { connected, seconds: (performance.now() - started) / 1000 };
}

async function emitOne(title) {
  sentAt.set(title, performance.now());
  const response = await fetch(`${base}/api/library/transcripts/${itemId}/metadata`, {
    method: "PUT",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ title }),
  });
  const requestMs = performance.now() - sentAt.get(title);
  if (response.status !== 200) throw new Error(`PUT metadata: ${response.status}`);
  await response.arrayBuffer();
  return requestMs;
}

const rssBefore = rssKib();
log(`connecting ${CLIENTS} clients, at most ${MAX_HALF_OPEN} half-open`);
const ramp = await connectAll();
log(`${ramp.connected} connected in ${ramp.seconds.toFixed(1)} s, ${refused} refused`);
await sleep(3000); // let upgrades finish and the allocator settle
const rssConnected = rssKib();
const live = sockets.filter(({ socket }) => socket.connected);
const byGroup = Object.fromEntries(
  GROUPS.map(({ name }) => [name, live.filter((s) => s.group === name).length]),
);
const upgraded = live.filter(
  ({ socket, group }) =>
    group === "polling+upgrade" && socket.io.engine.transport.name === "websocket",
).length;

const requestMs = [];
const stamp = Date.now();
const serverCpuBefore = serverCpuSeconds();
const clientCpuBefore = clientCpuSeconds();
for (let event = 0; event < EVENTS; event += 1) {
  requestMs.push(await emitOne(`fanout-${stamp}-${event}`));
  await sleep(EVENT_GAP_MS);
}
// Give the slowest (a long-poll between two requests) time to arrive.
const expected = EVENTS * live.length;
for (let waited = 0; waited < 10000 && deliveries.length < expected; waited += 100) {
  await sleep(100);
}
const rssAfterEvents = rssKib();
// Where the time of a fan-out goes: CPU of the server and of this (single-threaded) client
// per event, over the events phase (which also holds the idle sockets' pings and polls).
const serverCpuMsPerEvent = ((serverCpuSeconds() - serverCpuBefore) * 1000) / EVENTS;
const clientCpuMsPerEvent = ((clientCpuSeconds() - clientCpuBefore) * 1000) / EVENTS;
const stillConnected = sockets.filter(({ socket }) => socket.connected).length;
for (const { socket } of sockets) socket.close();

const perGroup = Object.fromEntries(
  GROUPS.map(({ name }) => [
    name,
    summary(deliveries.filter((d) => d.group === name).map((d) => d.ms)),
  ]),
);
// Per event, the time until its last client had it.
const lastPerEvent = [...sentAt.keys()].map((title) =>
  Math.max(...deliveries.filter((d) => d.title === title).map((d) => d.ms)),
);

process.stdout.write(
  `${JSON.stringify({
    clients: CLIENTS,
    connected: ramp.connected,
    refused,
    connect_seconds: Math.round(ramp.seconds * 10) / 10,
    connected_by_transport: byGroup,
    upgraded_to_websocket: upgraded,
    events: EVENTS,
    expected_deliveries: expected,
    deliveries: deliveries.length,
    still_connected_after_events: stillConnected,
    delivery: summary(deliveries.map((d) => d.ms)),
    delivery_by_transport: perGroup,
    last_client_per_event: summary(lastPerEvent),
    causing_request: summary(requestMs),
    server_cpu_ms_per_event: Math.round(serverCpuMsPerEvent * 10) / 10,
    client_cpu_ms_per_event: Math.round(clientCpuMsPerEvent * 10) / 10,
    events_phase_seconds: Math.round(((EVENTS * EVENT_GAP_MS) / 1000) * 10) / 10,
    rss_kib_before: rssBefore,
    rss_kib_connected: rssConnected,
    rss_kib_after_events: rssAfterEvents,
    rss_kib_per_connection:
      Math.round(((rssConnected - rssBefore) / Math.max(1, ramp.connected)) * 100) / 100,
  })}\n`,
);
process.exit(0);
