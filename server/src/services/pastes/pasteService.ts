import { randomInt } from 'node:crypto';
import {
  PASTE_MAX_BYTES,
  PasteMessages,
  SLUG_MAX,
  parseStoredE2ee,
  type CreatePaste,
  type ListPastesQuery,
  type PasteCreated,
  type PasteDetail,
  type PasteListItem,
  type PasteListResponse,
  type PasteLocked,
  type PasteType,
  type PasteView,
  type PastesDeleted,
  type UpdatePaste,
} from '@clipnest/contract';
import type { Updateable } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { PastesTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { isoNow, type Clock } from '../../lib/clock.js';
import { isWellFormedId, newSortableId } from '../../lib/ids.js';
import type { PasteMeta, PasteRepository, PasteRow, PasteSummaryRow } from '../../repositories/pasteRepository.js';
import { hashPassword, needsRehash, verifyPassword } from '../../security/secrets.js';
import { creatorId, type Principal } from '../../auth/principal.js';
import type { PendingViews } from './pendingViews.js';
import type { SecretAttemptLimiter } from '../auth/secretAttemptLimiter.js';
import type { StatsService } from '../admin/statsService.js';

export interface PasteServiceDeps {
  pastes: PasteRepository;
  clock: Clock;
  /** Where views of pastes without a view limit are counted before they are written. */
  pendingViews: PendingViews;
  /** Wrong paste passwords per client and paste (policy 'paste': 10 per 15 minutes, then 429). */
  limiter: SecretAttemptLimiter;
  stats?: StatsService;
  /** Content limit in UTF-8 bytes (default 10 MB, spec §9). */
  maxBytes?: number;
}

const HOUR_MS = 3600 * 1000;
const SLUG_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
/** 10 characters of a 57-letter alphabet: ~58 bits, not guessable. */
const GENERATED_SLUG_LENGTH = 10;

function generateSlug(): string {
  let slug = '';
  for (let i = 0; i < GENERATED_SLUG_LENGTH; i++) slug += SLUG_ALPHABET[randomInt(SLUG_ALPHABET.length)];
  return slug;
}

function remaining(row: Pick<PasteMeta, 'max_views' | 'views'>): number | null {
  return row.max_views > 0 ? Math.max(0, row.max_views - row.views) : null;
}

function asType(type: string): PasteType {
  return type === 'text' ? 'text' : 'markdown';
}

/** Text pastes: create, view (counted atomically), manage. Key holders only ever touch their own. */
export class PasteService {
  private readonly maxBytes: number;

  constructor(private readonly deps: PasteServiceDeps) {
    this.maxBytes = deps.maxBytes ?? PASTE_MAX_BYTES;
  }

  /** Largest JSON body a create/update may send: escaping can double the content (newlines, quotes). */
  get maxBodyBytes(): number {
    return this.maxBytes * 2 + 64 * 1024;
  }

  private nowIso(): string {
    return isoNow(this.deps.clock);
  }

  isGone(row: Pick<PasteMeta, 'expires_at' | 'max_views' | 'views'>, nowIso = this.nowIso()): boolean {
    return (row.expires_at !== null && row.expires_at <= nowIso) || (row.max_views > 0 && row.views >= row.max_views);
  }

  /** Stored views plus those counted in memory and not yet written. */
  private viewsOf(row: Pick<PasteMeta, 'id' | 'views'>): number {
    return row.views + this.deps.pendingViews.pendingOf(row.id);
  }

  /** Writes views counted in memory (before backups, on shutdown, in tests). */
  flushViews(): Promise<void> {
    return this.deps.pendingViews.flush();
  }

  private isOwner(row: Pick<PasteMeta, 'created_by'>, principal: Principal | null): boolean {
    if (!principal) return false;
    return principal.type === 'admin' || row.created_by === creatorId(principal);
  }

  /** undefined for the admin (sees everything), else the key's created_by. */
  private scope(principal: Principal): string | undefined {
    return principal.type === 'admin' ? undefined : creatorId(principal);
  }

  private checkContent(content: string): void {
    if (Buffer.byteLength(content, 'utf8') > this.maxBytes) {
      throw new AppError('PAYLOAD_TOO_LARGE', PasteMessages.contentTooLarge, {
        data: { max_bytes: this.maxBytes },
      });
    }
  }

  private resolveExpiry(input: { expires_in?: number; expires_at?: string | null }): string | null | undefined {
    const now = this.deps.clock.now().getTime();
    if (input.expires_in !== undefined) {
      return input.expires_in === 0 ? null : new Date(now + input.expires_in * HOUR_MS).toISOString();
    }
    if (input.expires_at === undefined || input.expires_at === null) return input.expires_at;
    const at = new Date(input.expires_at);
    if (at.getTime() <= now) {
      throw AppError.validation('expires_at must be in the future', [
        { path: 'expires_at', message: 'must be in the future' },
      ]);
    }
    return at.toISOString();
  }

  private toSummary(row: PasteSummaryRow, nowIso: string): PasteListItem {
    return {
      id: row.id,
      slug: row.slug,
      type: asType(row.type),
      remark: row.remark,
      // The server cannot read an encrypted paste: no preview, only its size and dates.
      preview: row.encryption ? '' : row.preview,
      size: row.size,
      has_password: row.password_hash !== null,
      expires_at: row.expires_at,
      max_views: row.max_views,
      views: this.viewsOf(row),
      remaining_views: remaining(row),
      expired: this.isGone(row, nowIso),
      created_by: row.created_by,
      created_at: row.created_at,
      updated_at: row.updated_at,
      encrypted: row.encryption !== null,
    };
  }

  private toDetail(row: PasteRow): PasteDetail {
    const nowIso = this.nowIso();
    return {
      ...this.toSummary(
        { ...row, preview: row.content.slice(0, 200), size: Buffer.byteLength(row.content, 'utf8') },
        nowIso,
      ),
      content: row.content,
    };
  }

  private toView(row: PasteRow, principal: Principal | null): PasteView {
    const owner = this.isOwner(row, principal);
    return {
      slug: row.slug,
      type: asType(row.type),
      content: row.content,
      remark: row.remark,
      created_at: row.created_at,
      expires_at: row.expires_at,
      max_views: row.max_views,
      views: this.viewsOf(row),
      remaining_views: remaining(row),
      has_password: row.password_hash !== null,
      requires_password: false,
      is_owner: owner,
      ...(owner ? { id: row.id } : {}),
      encryption: parseStoredE2ee(row.encryption),
    };
  }

  async create(principal: Principal, input: CreatePaste): Promise<PasteCreated> {
    this.checkContent(input.content);
    const expiresAt = this.resolveExpiry(input) ?? null;
    const now = this.nowIso();
    const row: PasteRow = {
      id: newSortableId(this.deps.clock.now().getTime()),
      slug: input.slug ?? generateSlug(),
      content: input.content,
      type: input.type,
      remark: input.remark ?? '',
      password_hash: input.password ? await hashPassword(input.password) : null,
      expires_at: expiresAt,
      max_views: input.max_views,
      views: 0,
      created_by: creatorId(principal),
      created_at: now,
      updated_at: now,
      encryption: input.encryption ? JSON.stringify(input.encryption) : null,
    };
    for (let attempt = 0; ; attempt++) {
      try {
        await this.deps.pastes.insert(row);
        break;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (input.slug !== undefined || attempt >= 4) throw AppError.slugTaken(PasteMessages.slugTaken);
        row.slug = generateSlug();
      }
    }
    return {
      id: row.id,
      slug: row.slug,
      url: `/paste/${row.slug}`,
      raw_url: `/api/raw/${row.slug}`,
      type: asType(row.type),
      remark: row.remark,
      has_password: row.password_hash !== null,
      expires_at: row.expires_at,
      max_views: row.max_views,
      created_at: row.created_at,
      encrypted: row.encryption !== null,
    };
  }

  /**
   * The common case (no password): a counted view, or undefined to take the slow path. Unlimited pastes
   * are read and counted in memory; limited ones are counted by one guarded UPDATE, so exactly max_views
   * viewers get the content whatever the concurrency.
   */
  private async consumeOpen(slug: string): Promise<PasteRow | undefined> {
    if (slug.length > SLUG_MAX) return undefined;
    const { pastes, pendingViews, stats } = this.deps;
    const nowIso = this.nowIso();
    const open = await pendingViews.countedRead(() => pastes.findOpenBySlug(slug, nowIso));
    if (!open) return undefined;
    let row: PasteRow | undefined = open;
    if (open.max_views === 0) pendingViews.add(open.id);
    else row = await pastes.consumeOpenViewBySlug(slug, nowIso);
    if (row) stats?.record('paste_views');
    return row;
  }

  private async findLive(slug: string): Promise<PasteMeta> {
    const meta = slug.length <= SLUG_MAX ? await this.deps.pastes.findMetaBySlug(slug) : undefined;
    if (!meta) throw AppError.notFound(PasteMessages.notFound);
    if (this.isGone(meta)) throw new AppError('EXPIRED', PasteMessages.gone);
    return meta;
  }

  private async consume(meta: PasteMeta): Promise<PasteRow> {
    const row = await this.deps.pastes.consumeView(meta.id, this.nowIso());
    if (!row) throw new AppError('EXPIRED', PasteMessages.gone);
    this.deps.stats?.record('paste_views');
    return row;
  }

  /** HEAD requests (link previewers, crawlers): 404/410 like a view, but nothing is counted or returned. */
  async peek(slug: string): Promise<void> {
    await this.findLive(slug);
  }

  /**
   * The owner's look at their own share (the admin, or the key that created it): not counted, so an owner
   * checking a limited paste never uses up its views, and no password (the owner reads the content through
   * the management API anyway). undefined when the caller is not the owner.
   */
  private async ownerView(slug: string, principal: Principal | null): Promise<PasteView | undefined> {
    if (!principal) return undefined;
    const meta = await this.findLive(slug);
    if (!this.isOwner(meta, principal)) return undefined;
    const row = await this.deps.pendingViews.consistentRead(() => this.deps.pastes.findById(meta.id));
    if (!row) throw AppError.notFound(PasteMessages.notFound);
    return this.toView(row, principal);
  }

  /** GET /api/paste/{slug}: the content (one view counted), or "a password is needed" without counting. */
  async view(slug: string, principal: Principal | null): Promise<PasteView | PasteLocked> {
    const owned = await this.ownerView(slug, principal);
    if (owned) return owned;
    const open = await this.consumeOpen(slug);
    if (open) return this.toView(open, principal);
    const meta = await this.findLive(slug);
    if (meta.password_hash !== null) {
      return { slug: meta.slug, requires_password: true };
    }
    return this.toView(await this.consume(meta), principal);
  }

  /** POST /api/paste/{slug} {password} and the raw endpoint: 401 "wrong password" unless it matches. */
  async unlock(
    slug: string,
    password: string | undefined,
    principal: Principal | null,
    client: string,
  ): Promise<PasteView> {
    const owned = await this.ownerView(slug, principal);
    if (owned) return owned;
    const open = await this.consumeOpen(slug);
    if (open) return this.toView(open, principal);
    const meta = await this.findLive(slug);
    if (meta.password_hash !== null) {
      if (password === undefined || password === '') {
        throw new AppError('PASSWORD_REQUIRED', 'this paste is protected by a password');
      }
      const hash = meta.password_hash;
      const right = await this.deps.limiter.attempt({ kind: 'paste', client, target: meta.id }, () =>
        verifyPassword(password, hash),
      );
      if (!right) throw new AppError('PASSWORD_WRONG', PasteMessages.wrongPassword);
      // Migration-only (CloudPaste import): the unsalted SHA-256 is replaced by scrypt on the first right password.
      if (needsRehash(hash)) await this.deps.pastes.update(meta.id, { password_hash: await hashPassword(password) });
    }
    return this.toView(await this.consume(meta), principal);
  }

  async list(principal: Principal, query: ListPastesQuery): Promise<PasteListResponse> {
    const offset = query.offset ?? (query.page - 1) * query.limit;
    const { rows, total } = await this.deps.pendingViews.consistentRead(() =>
      this.deps.pastes.list({
        createdBy: this.scope(principal),
        search: query.search || undefined,
        sort: query.sort,
        order: query.order,
        limit: query.limit,
        offset,
      }),
    );
    const nowIso = this.nowIso();
    return {
      items: rows.map((row) => this.toSummary(row, nowIso)),
      total,
      limit: query.limit,
      offset,
      page: Math.floor(offset / query.limit) + 1,
    };
  }

  private async requireOwned(principal: Principal, id: string): Promise<PasteRow> {
    const row = isWellFormedId(id)
      ? await this.deps.pendingViews.consistentRead(() => this.deps.pastes.findById(id))
      : undefined;
    // Another key's paste answers like a missing one: its existence is not revealed.
    if (!row || !this.isOwner(row, principal)) throw AppError.notFound(PasteMessages.notFound);
    return row;
  }

  async get(principal: Principal, id: string): Promise<PasteDetail> {
    return this.toDetail(await this.requireOwned(principal, id));
  }

  async update(principal: Principal, id: string, input: UpdatePaste): Promise<PasteDetail> {
    // A new limit or a reset must see every view counted so far.
    await this.flushViews();
    const row = await this.requireOwned(principal, id);
    if (input.content !== undefined) this.checkContent(input.content);
    if (
      row.encryption !== null &&
      (input.content !== undefined ||
        input.type !== undefined ||
        input.remark !== undefined ||
        input.password !== undefined)
    ) {
      throw AppError.validation(
        'an encrypted paste cannot be edited on the server: only its link, expiry and view limit can change',
        [{ path: 'content', message: 'the paste is end-to-end encrypted' }],
      );
    }
    const changes: Updateable<PastesTable> = {};
    if (input.content !== undefined) changes.content = input.content;
    if (input.type !== undefined) changes.type = input.type;
    if (input.remark !== undefined) changes.remark = input.remark;
    if (input.slug !== undefined && input.slug !== row.slug) changes.slug = input.slug;
    if (input.password !== undefined) changes.password_hash = await hashPassword(input.password);
    if (input.clear_password === true) changes.password_hash = null;
    const expiresAt = this.resolveExpiry(input);
    if (expiresAt !== undefined) changes.expires_at = expiresAt;
    if (input.max_views !== undefined) changes.max_views = input.max_views;
    if (input.reset_views === true) changes.views = 0;
    if (Object.keys(changes).length > 0) {
      changes.updated_at = this.nowIso();
      try {
        await this.deps.pastes.update(row.id, changes);
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.slugTaken(PasteMessages.slugTaken);
        throw error;
      }
    }
    return this.get(principal, row.id);
  }

  async batchDelete(principal: Principal, ids: string[]): Promise<PastesDeleted> {
    const wellFormed = [...new Set(ids)].filter(isWellFormedId);
    if (wellFormed.length === 0) return { deleted: 0 };
    return { deleted: await this.deps.pastes.deleteMany(wellFormed, this.scope(principal)) };
  }

  async clearExpired(principal: Principal): Promise<PastesDeleted> {
    return { deleted: await this.deps.pastes.deleteExpired(this.nowIso(), this.scope(principal)) };
  }

  /** Background sweep: every expired or exhausted paste, whoever made it. */
  async sweepExpired(): Promise<number> {
    return this.deps.pastes.deleteExpired(this.nowIso());
  }
}
