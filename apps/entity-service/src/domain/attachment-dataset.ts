import type { CallerContext, DatasetFile } from '@pitwall/contracts';
import { attachedFileRepository } from '../data-access/attached-file-repository';
import { knownType, notFound } from './entity-type';
import type { StoreContext } from './store-context';

/**
 * The files of one attachment group of an entity that are available on the server (state 2), oldest first: the
 * dataset the data file reads open. An entity the caller cannot see (another account's, a missing one) is a 404;
 * a group with no available file is an empty list (the datafile-service says which dataset is missing).
 */
export async function attachmentDataset(ctx: StoreContext, caller: CallerContext, typeName: string, id: string, group: string): Promise<DatasetFile[]> {
  const type = knownType(typeName);
  const files = await attachedFileRepository.datasetFiles(ctx.pool, caller.accountId, type.plural, id, group);
  if (!files) throw notFound(type, id);
  return files;
}
