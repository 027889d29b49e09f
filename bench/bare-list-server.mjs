// The lists' second baseline: a bare Fastify route in front of PostgreSQL. It runs the statement it is started with
// (BARE_SQL) as a named prepared statement on a pool of the server's size and setting, with the values the request
// names, and answers the rows as the driver gives them in the API's envelope: no authentication, validation, hooks
// or mapping. What the portal's list costs above it is the portal's own; what it costs above the SQL sent directly
// is the price of any HTTP server in between on this machine.
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: 20,
  onConnect: (client) => client.query(process.env.BARE_SESSION),
});
const text = process.env.BARE_SQL;
const app = Fastify({ logger: false });
app.get('/ready', async () => 'ready');
app.post('/list', async (request) => {
  const { rows } = await pool.query({ name: 'bare', text, values: request.body.values });
  return { code: 200, msg: 'Success', data: { total: rows[0]?.total ?? 0, list: rows } };
});
// A clean exit on SIGTERM, so BENCH_PROFILE's CPU profile is written.
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0)),
);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('ready');
