import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { ScannerClient } from './client.js';

const HELP = `Scanner command: talks to the portal only through the device API.

  npm run scanner -- activate --serial SN --code CODE [--url URL]
  npm run scanner -- heartbeat --battery 87
  npm run scanner -- upload --patient "Name" [--patient-id ID] [--birth 1980-05-17] [--name "Case name"]
                            [--treatment Crown] FILE... (upper/lower/bite taken from file names)
  npm run scanner -- resume --case CASECODE FILE...   (finish an interrupted upload)

Options: --url (default http://localhost:8080), --state FILE (default ~/.dental-scanner.json)`;

interface State {
  url: string;
  deviceToken?: string;
  serialNumber?: string;
}

function jawOf(file: string) {
  const n = basename(file).toLowerCase();
  return n.includes('upper') ? 'upper' : n.includes('lower') ? 'lower' : n.includes('bite') ? 'bite' : undefined;
}

function bar(sent: number, total: number) {
  const pct = total ? Math.floor((sent / total) * 100) : 100;
  const filled = Math.round(pct / 4);
  return `[${'#'.repeat(filled)}${'.'.repeat(25 - filled)}] ${String(pct).padStart(3)}%  ${(sent / 1048576).toFixed(1)}/${(total / 1048576).toFixed(1)} MB`;
}

export async function runScanner(argv: string[], log: (line: string) => void = console.log) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      state: { type: 'string' },
      serial: { type: 'string' },
      code: { type: 'string' },
      battery: { type: 'string' },
      patient: { type: 'string' },
      'patient-id': { type: 'string' },
      birth: { type: 'string' },
      name: { type: 'string' },
      treatment: { type: 'string', multiple: true },
      case: { type: 'string' },
      'chunk-mb': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const [command, ...files] = positionals;
  if (!command || values.help) return log(HELP);
  const stateFile = values.state ?? join(homedir(), '.dental-scanner.json');
  const state: State = existsSync(stateFile)
    ? (JSON.parse(readFileSync(stateFile, 'utf8')) as State)
    : { url: 'http://localhost:8080' };
  if (values.url) state.url = values.url.replace(/\/+$/, '');
  const save = () => {
    mkdirSync(dirname(stateFile), { recursive: true });
    writeFileSync(stateFile, JSON.stringify(state, null, 2), { mode: 0o600 });
  };
  const client = new ScannerClient(state.url, state.deviceToken);
  const uploads = `${stateFile}.uploads`;
  const chunkSize = values['chunk-mb'] ? Math.max(1, Math.floor(Number(values['chunk-mb']) * 1024 * 1024)) : undefined;
  const send = async (caseCode: string) => {
    for (const file of files) {
      let last = '';
      await client.upload(
        file,
        { caseCode, jaw: jawOf(file) },
        {
          stateFile: uploads,
          chunkSize,
          onProgress: (sent, total) => {
            const line = bar(sent, total);
            if (line !== last) log(`  ${basename(file)} ${(last = line)}`);
          },
        },
      );
    }
    const done = await client.complete(caseCode);
    log(`Case ${caseCode}: ${done.status}`);
  };

  switch (command) {
    case 'activate': {
      if (!values.serial || !values.code) throw new Error('activate needs --serial and --code');
      const res = await client.activate(values.serial, values.code);
      Object.assign(state, { deviceToken: res.deviceToken, serialNumber: values.serial.toUpperCase() });
      save();
      log(`Activated ${values.serial} for ${res.clinicName}.`);
      return;
    }
    case 'heartbeat':
      await client.heartbeat(Number(values.battery ?? 100));
      log('Heartbeat sent.');
      return;
    case 'upload': {
      if (!values.patient || !files.length) throw new Error('upload needs --patient and at least one file');
      const created = await client.createCase({
        // Today where the scanner is, as its own screen would say.
        name: values.name ?? `Scan ${new Date().toLocaleDateString('en-CA')}`,
        patientName: values.patient,
        patientId: values['patient-id'],
        birthDate: values.birth,
        treatments: values.treatment ?? [],
      });
      log(`Case ${created.caseCode} created; uploading ${files.length} file(s).`);
      await send(created.caseCode);
      return created.caseCode;
    }
    case 'resume':
      if (!values.case || !files.length) throw new Error('resume needs --case and the files');
      await send(values.case);
      return values.case;
    default:
      throw new Error(`unknown command ${command}\n${HELP}`);
  }
}

if (process.argv[1] && /(scanner|cli)\.(ts|js)$/.test(process.argv[1])) {
  runScanner(process.argv.slice(2)).catch((err: Error) => {
    console.error(err.message);
    process.exit(1);
  });
}
