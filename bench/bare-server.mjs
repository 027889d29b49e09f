// The baseline: a bare Fastify route answering the same envelope, no plugins, no database.
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/bare', async () => ({ code: 200, msg: 'Success', data: { status: 'ok' } }));
app.post('/bare', async () => ({ code: 200, msg: 'Success', data: { status: 'ok' } }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('ready');
