/**
 * Creating an end-to-end encrypted paste (docs/encryption.md). Loaded with `import()` only when the option
 * is chosen, so the crypto code stays out of the Home and paste view bundles.
 */
import type { CreatePasteInput, PasteCreated, PasteType } from '@clipnest/contract';
import { encryptPaste } from '../../lib/e2ee';
import { createPaste } from './api';
import { toCreateInput, type ShareOptionsState } from './shareForm';

/** Encrypts content, remark and type, sends only ciphertext; answers the paste and the fragment key. */
export async function createEncryptedPaste(
  content: string,
  type: PasteType,
  state: ShareOptionsState,
): Promise<{ created: PasteCreated; key: string }> {
  const plain = toCreateInput(content, type, state);
  const enc = await encryptPaste(
    { content, remark: plain.remark ?? '', type },
    state.password ? { password: state.password } : {},
  );
  const input: CreatePasteInput = {
    content: enc.content,
    encryption: enc.encryption,
    type: 'text',
    ...(plain.slug ? { slug: plain.slug } : {}),
    ...(plain.expires_in !== undefined ? { expires_in: plain.expires_in } : {}),
    ...(plain.max_views !== undefined ? { max_views: plain.max_views } : {}),
  };
  return { created: await createPaste(input), key: enc.key };
}
