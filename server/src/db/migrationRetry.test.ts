import { describe, expect, it } from 'vitest';
import { otherSchemaVanished } from './database.js';

const pgError = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('otherSchemaVanished (migration retry)', () => {
  it('retries when a schema other than ours disappeared while Kysely listed tables', () => {
    expect(otherSchemaVanished(pgError('schema "c_abc" does not exist', '3F000'), 't_ours')).toBe(true);
    expect(otherSchemaVanished(pgError('schema "c_abc" does not exist', '3F000'), undefined)).toBe(true);
    // the table lookup of a schema dropped between listing and reading its columns
    expect(otherSchemaVanished(pgError('relation "c_abc.upload_parts" does not exist', '42P01'), 't_ours')).toBe(true);
    // the serial-sequence lookup of a column another schema's migration dropped meanwhile (CI, 2026-11-28)
    const column = pgError('column "endpoint" of relation "storage_configs" does not exist', '42703');
    expect(otherSchemaVanished(column, 't_ours')).toBe(true);
  });
  it('does not retry when our own schema is missing or the error is another one', () => {
    expect(otherSchemaVanished(pgError('schema "t_ours" does not exist', '3F000'), 't_ours')).toBe(false);
    expect(otherSchemaVanished(pgError('relation "x" does not exist', '42P01'), 't_ours')).toBe(false);
    expect(otherSchemaVanished(pgError('relation "t_ours.x" does not exist', '42P01'), 't_ours')).toBe(false);
    expect(otherSchemaVanished(new Error('boom'), 't_ours')).toBe(false);
    expect(otherSchemaVanished(null, 't_ours')).toBe(false);
  });
});
