// Exits 0 when something answers on 127.0.0.1:5432 (the local PostgreSQL), 1 otherwise.
import { connect } from 'node:net';
const socket = connect({ host: '127.0.0.1', port: 5432, timeout: 1000 });
socket.on('connect', () => {
  socket.destroy();
  process.exit(0);
});
socket.on('timeout', () => process.exit(1));
socket.on('error', () => process.exit(1));
