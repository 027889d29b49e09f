import { createInterface } from 'node:readline/promises';
import { checkPassword, OrgType } from '@portal/contracts';
import { loadConfig } from './config.js';
import { openDatabase } from './main.js';
import { createAccount } from './seed.js';
import { UsersService } from './modules/users/users.service.js';

/** Creates a super administrator: `npm run admin:create -- --account a --email e` (password asked, or ADMIN_PASSWORD). */
async function run() {
  const args = new Map<string, string>();
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) args.set(argv[i]!.replace(/^--/, ''), argv[i + 1] ?? '');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const ask = async (name: string, question: string) => args.get(name) || (await rl.question(question)).trim();
  const account = await ask('account', 'Account name: ');
  const email = await ask('email', 'Email: ');
  const password = process.env.ADMIN_PASSWORD || (await ask('password', 'Password: '));
  rl.close();
  if (!checkPassword(password).valid)
    throw new Error('The password must be 8 to 20 characters with at least 3 of: digit, uppercase, lowercase, symbol.');
  const config = loadConfig();
  const db = await openDatabase(config);
  if (await UsersService.identifierTaken(db, { account }))
    throw new Error(`The account ${account} is already someone's account name, email or phone number.`);
  if (await UsersService.identifierTaken(db, { email })) throw new Error(`The email ${email} is already in use.`);
  await createAccount(db, {
    account,
    email,
    password,
    orgType: OrgType.Inner,
    roleCode: 'super_admin',
    organization: 'Portal Operations',
    region: config.region,
    displayName: account,
  });
  await db.close();
  console.log(`Super administrator ${account} created.`);
}

run().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
