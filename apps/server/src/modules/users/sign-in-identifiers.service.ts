import type { SignInDispute } from '@portal/contracts';
import type { Db, Queryable } from '../../platform/db.js';
import { fail, invalidField } from '../../platform/errors.js';
import {
  accountKey,
  emailKey,
  looksLikePhone,
  phoneKey,
  phoneRegion,
  signInKeys,
  type IdentifierKind,
} from './sign-in-identifiers.js';
import { signInIdentifiersRepository as repo } from './sign-in-identifiers.repository.js';
import { usersRepository } from './users.repository.js';

const TAKEN = { account: 'ACCOUNT_TAKEN', email: 'EMAIL_TAKEN', phone: 'PHONE_TAKEN' } as const;
const COUNTRIES_TTL_MS = 5 * 60_000;

/** What a user signs in with; `phone: null` (or '') removes the phone number. */
export interface IdentifierValues {
  account?: string;
  email?: string;
  phone?: string | null;
}

/** The outcome of looking an identifier up at sign-in. */
export type SignInMatch = { userId: number } | { ambiguous: true } | undefined;

/**
 * The one namespace of sign-in identifiers (docs/product-decisions.md, "Sign-in identifiers"): every call that sets
 * an account name, an email or a phone number claims its key here, in the transaction that sets it, and the unique
 * key settles two claims at once. Sign-in finds its user here only.
 */
export class SignInIdentifiers {
  private static countries: { at: number; list: Promise<string[]> } | undefined;

  /** The keys of the values, refusing an account name that reads as a phone number and a phone that is not one. */
  static async keysOf(db: Queryable, values: IdentifierValues, where: { userId?: number; organizationId?: number }) {
    const keys: Array<{ kind: IdentifierKind; key: string | null }> = [];
    if (values.account !== undefined) {
      if (looksLikePhone(values.account) || values.account.includes('@'))
        invalidField('account', 'accountLooksLikePhone');
      keys.push({ kind: 'account', key: accountKey(values.account) });
    }
    if (values.email !== undefined) keys.push({ kind: 'email', key: emailKey(values.email) });
    if (values.phone !== undefined) {
      if (!values.phone) keys.push({ kind: 'phone', key: null });
      else {
        const region = phoneRegion(
          where.organizationId !== undefined
            ? await repo.placeOfOrganization(db, where.organizationId)
            : where.userId !== undefined
              ? await repo.placeOfUser(db, where.userId)
              : undefined,
        );
        const key = phoneKey(values.phone, region);
        if (!key) invalidField('phone', region ? 'phoneNotPossible' : 'phoneCountryCode');
        keys.push({ kind: 'phone', key });
      }
    }
    return keys;
  }

  /**
   * Claims a new user's identifiers in the caller's transaction: the catalogue's "taken" answer naming the field when
   * another user holds one (two sign-ups at once meet at the key; the second is refused).
   */
  static async claim(tx: Queryable, userId: number, values: IdentifierValues) {
    const keys = await SignInIdentifiers.keysOf(tx, values, { userId });
    for (const { kind, key } of keys) {
      await repo.release(tx, userId, kind);
      if (key && !(await repo.claim(tx, userId, kind, key))) fail(TAKEN[kind], { field: kind }, { field: kind });
    }
    if (keys.length) await repo.settle(tx);
  }

  /**
   * A user's changed identifiers, claimed in the caller's transaction before the user's row changes: what is
   * unchanged stays as it is (an old account name is not judged again); a refused change changes nothing, so a
   * refused rename leaves the one allowed rename unused.
   */
  static async change(tx: Queryable, userId: number, values: IdentifierValues) {
    const current = await usersRepository.findById(tx, userId);
    if (!current) fail('NOT_FOUND');
    const changed: IdentifierValues = {};
    if (values.account !== undefined && values.account !== current.account) changed.account = values.account;
    if (values.email !== undefined && values.email.toLowerCase() !== current.email.toLowerCase())
      changed.email = values.email;
    if (values.phone !== undefined && (values.phone || null) !== current.phone) changed.phone = values.phone;
    await SignInIdentifiers.claim(tx, userId, changed);
  }

  /** Whether values are free for a user (another's, or a new user's when `userId` is absent): the first taken. */
  static async firstTaken(
    db: Queryable,
    values: IdentifierValues,
    where: { userId?: number; organizationId?: number },
  ): Promise<IdentifierKind | undefined> {
    for (const { kind, key } of await SignInIdentifiers.keysOf(db, values, where)) {
      if (!key) continue;
      const holder = await repo.holder(db, key);
      if (holder !== undefined && holder !== where.userId) return kind;
    }
    return undefined;
  }

  /** Refuses values another user holds (the forms' check before a transaction; `set` settles races). */
  static async assertFree(
    db: Queryable,
    values: IdentifierValues,
    where: { userId?: number; organizationId?: number },
  ) {
    const kind = await SignInIdentifiers.firstTaken(db, values, where);
    if (kind) fail(TAKEN[kind], { field: kind }, { field: kind });
  }

  /** A deleted user's identifiers are free for others at once. */
  static async releaseAll(tx: Queryable, userIds: number[]) {
    if (!userIds.length) return;
    await repo.releaseAll(tx, userIds);
    await repo.settle(tx);
  }

  /** The user an identifier typed at sign-in stands for; ambiguous when its readings find two users. */
  static async lookup(db: Queryable, identifier: string): Promise<SignInMatch> {
    const keys = signInKeys(identifier, looksLikePhone(identifier) ? await SignInIdentifiers.regions(db) : []);
    const users = await repo.usersOf(db, keys);
    if (users.length > 1) return { ambiguous: true };
    return users.length ? { userId: users[0]! } : undefined;
  }

  private static regions(db: Queryable): Promise<string[]> {
    const cached = SignInIdentifiers.countries;
    if (cached && Date.now() - cached.at < COUNTRIES_TTL_MS) return cached.list;
    const list = repo
      .places(db)
      .then((places) => [...new Set(places.map(phoneRegion).filter((r): r is string => r !== null))]);
    SignInIdentifiers.countries = { at: Date.now(), list };
    list.catch(() => (SignInIdentifiers.countries = undefined));
    return list;
  }

  /** Identifiers that match more than one user, for the super administrator to resolve. */
  static async disputes(db: Db): Promise<SignInDispute[]> {
    const rows = await repo.disputes(db);
    const byKey = new Map<string, SignInDispute>();
    for (const r of rows) {
      const entry = byKey.get(r.identifier) ?? {
        identifier: r.identifier,
        kind: r.kind,
        foundAt: new Date(r.found_at).toISOString(),
        users: [],
      };
      entry.users.push({
        userCode: r.user_code,
        account: r.account,
        displayName: r.display_name,
        organizationName: r.organization_name,
      });
      byKey.set(r.identifier, entry);
    }
    return [...byKey.values()];
  }

  /**
   * Fills the keys of users made before the namespace existed, in batches: a key two users held is disputed (nobody's
   * until one changes it), a phone that is no possible number is left without a key (that user signs in by account
   * or email), and an account name that reads as another user's phone number is recorded for the report.
   */
  static async backfill(db: Db) {
    let afterId = 0;
    for (;;) {
      const users = await repo.usersWithoutKeys(db, afterId, 500);
      if (!users.length) break;
      afterId = Number(users[users.length - 1]!.id);
      await db.transaction(async (tx) => {
        for (const u of users) {
          const userId = Number(u.id);
          const phone = u.phone ? phoneKey(u.phone, phoneRegion(u)) : null;
          const keys: Array<[IdentifierKind, string | null]> = [
            ['account', accountKey(u.account)],
            ['email', emailKey(u.email)],
            ['phone', phone],
          ];
          for (const [kind, key] of keys) {
            if (!key || (await repo.claim(tx, userId, kind, key))) continue;
            const holder = await repo.holder(tx, key);
            await repo.dispute(tx, key, kind, holder ? [holder, userId] : [userId]);
          }
        }
      });
    }
    // Account names that read as someone's phone number: sign-in refuses the ambiguous reading; reported.
    await db.transaction(async (tx) => {
      for (const u of await repo.phoneLikeAccounts(tx)) {
        const key = phoneKey(u.account, phoneRegion(u));
        const holder = key ? await repo.holder(tx, key) : undefined;
        if (key && holder && holder !== Number(u.id))
          await repo.recordLookalike(tx, key, [
            { userId: holder, kind: 'phone' },
            { userId: Number(u.id), kind: 'account' },
          ]);
      }
    });
  }
}
