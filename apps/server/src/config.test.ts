import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('stops on a bad value, naming the variable', () => {
    const bad = (env: Record<string, string>, name: string) => {
      expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(32), ...env })).toThrow(ConfigError);
      expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(32), ...env })).toThrow(new RegExp(`${name}:`));
    };
    bad({ PORT: 'eighty' }, 'PORT');
    bad({ PORT: '70000' }, 'PORT');
    bad({ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL');
    bad({ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL');
    bad({ REGION: 'mars' }, 'REGION');
    bad({ SMTP_URL: 'http://mail' }, 'SMTP_URL');
    bad({ SMPP_URL: 'http://sms' }, 'SMPP_URL');
    bad({ SMPP_SOURCE_ADDR: 'Dental Portal Inc' }, 'SMPP_SOURCE_ADDR');
    bad({ SMPP_LONG_SMS: 'udh' }, 'SMPP_LONG_SMS');
    bad({ CHAT_NOTICE_QUIET_MINUTES: '0' }, 'CHAT_NOTICE_QUIET_MINUTES');
    bad({ MAIL_FROM: 'nobody' }, 'MAIL_FROM');
    bad({ JWT_SECRET: 'short' }, 'JWT_SECRET');
    bad({ NODE_ENV: 'staging' }, 'NODE_ENV');
    bad({ DATABASE_POOLER: 'session' }, 'DATABASE_POOLER');
    // A pooler in transaction mode cannot hold a LISTEN: the direct address is required.
    bad({ DATABASE_URL: 'postgres://db/portal', DATABASE_POOLER: 'transaction' }, 'LISTEN_DATABASE_URL');
    // Migrating as the owner needs the portal's own role to connect as.
    bad({ MIGRATION_DATABASE_URL: 'postgres://owner@db/portal' }, 'MIGRATION_DATABASE_URL');
  });

  it('has working defaults and strips the trailing slash of PUBLIC_URL', () => {
    const c = loadConfig({ JWT_SECRET: 'x'.repeat(32), PUBLIC_URL: 'https://portal.example.com/' });
    expect(c.port).toBe(8080);
    expect(c.region).toBe('us');
    expect(c.publicUrl).toBe('https://portal.example.com');
    expect(c.seedDemo).toBe(true);
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(32), NODE_ENV: 'production' }).seedDemo).toBe(false);
    // Text messages: kept in the outbox without an SMPP centre; notices after 15 quiet minutes.
    expect(c.smpp).toBeUndefined();
    expect(c.chatNoticeQuietMinutes).toBe(15);
    const sms = loadConfig({
      JWT_SECRET: 'x'.repeat(32),
      SMPP_URL: 'smpp://portal:secret@sms.example.com:2775',
      SMPP_SOURCE_ADDR: '+4930123456',
    });
    expect(sms.smpp).toEqual({
      url: 'smpp://portal:secret@sms.example.com:2775',
      sourceAddr: '4930123456',
      long: 'split',
    });
  });

  it('generates the signing secret once and keeps it in the data folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-config-'));
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8')).jwtSecret).toBe(first.jwtSecret);
    expect(statSync(join(dir, 'secrets.json')).mode & 0o077).toBe(0);
  });
});
