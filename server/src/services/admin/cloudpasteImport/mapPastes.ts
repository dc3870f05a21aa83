import type { PasteRow } from '../../../repositories/pasteRepository.js';
import { rowProblem } from '../backup/backupRowRules.js';
import type { CloudpasteRow } from './backupFile.js';
import { creator, freeValue, type ImportContext } from './context.js';
import { cpPaste, cpPlainPassword, parseRows } from './rows.js';
import { importedPasswordHash } from './sharePasswords.js';

/** Title and remark in our one remark field (CloudPaste copies the slug into an empty title: left out). */
function remarkOf(slug: string, title: string | null | undefined, remark: string | null | undefined): string {
  const head = title && title !== slug ? title : '';
  return [head, remark ?? ''].filter(Boolean).join(' — ').slice(0, 1000);
}

/** pastes (+ paste_passwords): slug, content, title/remark, times, expiry, views, creator, password. */
export async function mapPastes(
  ctx: ImportContext,
  table: CloudpasteRow[] | undefined,
  passwordTable: CloudpasteRow[] | undefined,
): Promise<void> {
  const rows = parseRows('pastes', table, cpPaste);
  const plains = new Map(
    parseRows('paste_passwords', passwordTable, cpPlainPassword('paste_id')).map((p) => [
      String(p.paste_id),
      String(p.plain_password),
    ]),
  );
  ctx.report.total('pastes', rows.length);
  const existingIds = await ctx.lookup.existing(
    'pastes',
    'id',
    rows.map((r) => r.id),
  );
  const planned = new Set<string>();
  for (const row of rows) {
    if (existingIds.has(row.id)) {
      ctx.report.skipped('pastes', row.id, row.slug, 'already imported');
      continue;
    }
    const slug = await freeValue(ctx, row.slug, (c) => ctx.lookup.existing('pastes', 'slug', c), planned);
    if (slug === undefined) {
      ctx.report.skipped('pastes', row.id, row.slug, 'the slug is taken by another paste here');
      continue;
    }
    const paste: PasteRow = {
      id: row.id,
      slug,
      content: row.content,
      type: 'markdown',
      remark: remarkOf(row.slug, row.title, row.remark),
      password_hash: null,
      expires_at: row.expires_at ?? null,
      // CloudPaste has no end-to-end encryption: every imported row is readable by the server.
      encryption: null,
      max_views: row.max_views ?? 0,
      views: row.views ?? 0,
      created_by: creator(ctx, row.created_by),
      created_at: row.created_at ?? ctx.now,
      updated_at: row.updated_at ?? row.created_at ?? ctx.now,
    };
    const problem = rowProblem('pastes', paste);
    if (problem) {
      ctx.report.skipped('pastes', row.id, row.slug, `cannot be imported: ${problem}`);
      continue;
    }
    paste.password_hash = await importedPasswordHash(ctx, `paste ${row.slug}`, row.password, plains.get(row.id));
    planned.add(slug);
    ctx.writes.pastes.push(paste);
    const notes: string[] = [];
    if (slug !== row.slug) notes.push(`slug renamed to ${slug}`);
    if (row.is_public === 0) {
      notes.push('CloudPaste marked it not public: here anyone with the link opens it');
      ctx.report.warn(
        `${row.slug}: CloudPaste marked this paste not public; Clipnest has no private pastes, so anyone with its link can open it (add a password or delete it after the import)`,
      );
    }
    ctx.report.created('pastes', row.id, slug, notes.join('; ') || undefined);
  }
}
