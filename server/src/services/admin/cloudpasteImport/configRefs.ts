import type { ConfigState, ImportContext } from './context.js';

/** The state of the storage config a file or mount names: imported now, here already, or left out. */
export async function configOf(ctx: ImportContext, id: string | null | undefined): Promise<ConfigState> {
  if (!id) return { ok: false, name: '(none)', reason: 'the row names no storage config', unsupported: false };
  const known = ctx.configs.get(id);
  if (known) return known;
  const here = (await ctx.lookup.configs([id])).get(id);
  const state: ConfigState = here
    ? { ok: true, type: here.storage_type, name: here.name, root: here.root_path || null }
    : { ok: false, name: id, reason: 'it is neither in the backup nor here', unsupported: false };
  ctx.configs.set(id, state);
  return state;
}
