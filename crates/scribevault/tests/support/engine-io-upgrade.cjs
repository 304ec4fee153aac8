// The Engine.IO v4 upgrade at the packet level, as the protocol's own test suite checks it,
// with Node's fetch and the `ws` package the npm client uses (both from the frontend).
// Usage: node engine-io-upgrade.cjs <url> <userId> <token>
// Exits 0 when every check holds; prints what it saw and exits 1 otherwise.
const assert = require('assert');
const path = require('path');
const WebSocket = require(process.env.WS_PACKAGE || path.join(__dirname, '../../../../frontend/node_modules/ws'));

const [url, userId, token] = process.argv.slice(2);
const endpoint = `${url}/socket.io/?EIO=4`;
const wsEndpoint = endpoint.replace(/^http/, 'ws');

// Every socket queues what it receives, so frames that arrive together are not lost between
// two awaits.
function connect(address) {
  const socket = new WebSocket(address);
  socket.inbox = [];
  socket.waiting = null;
  socket.on('message', (data) => {
    socket.inbox.push(data.toString());
    if (socket.waiting) socket.waiting();
  });
  socket.on('close', () => socket.waiting && socket.waiting());
  return socket;
}

async function nextMessage(socket) {
  while (socket.inbox.length === 0) {
    if (socket.readyState === WebSocket.CLOSED) throw new Error('closed');
    await new Promise((resolve) => {
      socket.waiting = resolve;
    });
    socket.waiting = null;
  }
  return socket.inbox.shift();
}

function closed(socket) {
  return new Promise((resolve) => {
    if (socket.readyState === WebSocket.CLOSED) resolve();
    socket.once('close', resolve);
  });
}

async function opened(socket) {
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
}

async function main() {
  const handshake = await fetch(`${endpoint}&transport=polling`);
  const open = JSON.parse((await handshake.text()).slice(1));
  assert.deepStrictEqual(open.upgrades, ['websocket']);
  const polling = `${endpoint}&transport=polling&sid=${open.sid}`;

  // A poll held while the WebSocket probes is answered with a noop.
  const held = fetch(polling).then((response) => response.text());
  const socket = connect(`${wsEndpoint}&transport=websocket&sid=${open.sid}`);
  await opened(socket);
  socket.send('2probe');
  assert.strictEqual(await nextMessage(socket), '3probe');
  assert.strictEqual(await held, '6');
  socket.send('5');

  // After the upgrade, long-polling with the same sid is refused; the WebSocket carries on.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const late = await fetch(polling);
  assert.strictEqual(late.status, 400);
  socket.send(`40${JSON.stringify({ userId, token })}`);
  assert.match(await nextMessage(socket), /^40\{"sid":/);

  // A second WebSocket for the same session is closed without a probe answer.
  const second = connect(`${wsEndpoint}&transport=websocket&sid=${open.sid}`);
  await opened(second);
  second.send('2probe');
  await closed(second);
  assert.deepStrictEqual(second.inbox, []);

  // The first one still works.
  socket.send('421["testMessage",{"message":"still upgraded"}]');
  assert.strictEqual(await nextMessage(socket), '42["testMessage",{"message":"still upgraded"}]');
  assert.strictEqual(await nextMessage(socket), '431[{"event":"testMessage","received":true}]');
  socket.close();

  // An unknown sid is refused before any WebSocket handshake.
  const unknown = await fetch(`${endpoint}&transport=websocket&sid=nope`);
  assert.strictEqual(unknown.status, 400);
  assert.deepStrictEqual(await unknown.json(), { code: 1, message: 'Session ID unknown' });
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
