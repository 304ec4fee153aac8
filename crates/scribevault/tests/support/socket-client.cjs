// A real socket.io-client (the npm package the SPA uses) for the Rust end-to-end tests.
// Usage: node socket-client.cjs <url> <userId> <token> [namespace]
// SOCKET_IO_TRANSPORTS (comma-separated, default "websocket,polling") sets `transports`.
// Prints one JSON object per line: connect (with the transport in use), connect_error,
// disconnect, event, ack, upgrade (the transport upgraded to).
// Reads commands from stdin, one JSON object per line: {"emit": name, "data": …, "ack": bool}.
const path = require('path');
const clientPath = process.env.SOCKET_IO_CLIENT || path.join(__dirname, '../../../../frontend/node_modules/socket.io-client');
const { io } = require(clientPath);

const [url, userId, token, namespace] = process.argv.slice(2);
const print = (value) => process.stdout.write(JSON.stringify(value) + '\n');

const transports = (process.env.SOCKET_IO_TRANSPORTS || 'websocket,polling').split(',');
const socket = io(url + (namespace || ''), {
  transports,
  timeout: 10000,
  reconnectionAttempts: 5,
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  auth: { userId, token },
});
socket.on('connect', () =>
  print({ kind: 'connect', id: socket.id, transport: socket.io.engine.transport.name }));
socket.io.on('open', () =>
  socket.io.engine.on('upgrade', (transport) => print({ kind: 'upgrade', transport: transport.name })));
socket.on('connect_error', (error) => print({ kind: 'connect_error', message: error.message }));
socket.on('disconnect', (reason) => print({ kind: 'disconnect', reason }));
socket.onAny((name, data) => print({ kind: 'event', name, data }));

let buffered = '';
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let newline;
  while ((newline = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, newline);
    buffered = buffered.slice(newline + 1);
    if (!line.trim()) continue;
    const command = JSON.parse(line);
    if (command.ack) {
      socket.emit(command.emit, command.data, (reply) => print({ kind: 'ack', data: reply }));
    } else {
      socket.emit(command.emit, command.data);
    }
  }
});
process.stdin.on('end', () => { socket.close(); process.exit(0); });
