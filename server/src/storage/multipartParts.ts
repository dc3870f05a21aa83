// Checks of part numbers both drivers' multipart make alike.
import { StorageError } from './types.js';

/** Refuses a part number outside 1..max. */
export function checkPartNumber(path: string, partNumber: number, max: number): void {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > max) {
    throw new StorageError('invalid_part', `part number must be 1..${max}`, { path });
  }
}

/** The parts in order, each refused as it is reached unless its number is an integer above the one before. */
export function* ascendingParts<P extends { partNumber: number }>(parts: readonly P[], path: string): Generator<P> {
  let previous = 0;
  for (const part of parts) {
    if (!Number.isInteger(part.partNumber) || part.partNumber <= previous) {
      throw new StorageError('invalid_part', 'part numbers must ascend', { path });
    }
    previous = part.partNumber;
    yield part;
  }
}
