import type { BinaryView } from '../binary-view';
import { CorruptDataFileError } from '../errors';
import { chain, type Mdf4Block, readBlock } from './blocks';

/** id_unfin_flags: what the writer left for a finaliser to do (MDF 4.1 and later). */
const FLAGS = { cycleCounters: 1, srCycleCounters: 2, dtLength: 4, rdLength: 8, dlLists: 16, vlsdDataBytes: 32, vlsdOffsets: 64 } as const;
/** Steps this reader can skip safely: it reads no ##SR or ##RD block, and skips VLSD records by their own length prefix. */
const NOT_NEEDED = FLAGS.srCycleCounters | FLAGS.rdLength | FLAGS.vlsdDataBytes | FLAGS.vlsdOffsets;
const ID = { unfinFlags: 60, customUnfinFlags: 62 } as const;

/**
 * How an unfinalised file ("UnFinMF ") is finalised in memory, as asammdf does on open: the cycle counts of its channel
 * groups counted from the data, the last ##DT of each data list extended to where the next block starts (or the end of
 * the file), a ##DL's count held to the links it has. Nothing is written back.
 */
export interface Finalisation {
  /** Cycle counts come from the data (the records the data blocks hold), not from ##CG. */
  cycleCounts: boolean;
  /** Where the last ##DT of a list really ends; undefined when its declared length stands. */
  lastDtEnd?: (offset: number) => number;
  /** A ##DL whose count names more blocks than it has links keeps the links it has. */
  lenientLists: boolean;
  /** A record cut off at the end of the data (the logger stopped mid-record) is dropped. */
  partialTail: true;
}

/** The file was not finalised by its logger, and this reader cannot finish what is left safely. */
export function notFinalised(reason: string, offset: number): CorruptDataFileError {
  return new CorruptDataFileError('mdf4', `the file was not finalised by its logger (UnFinMF) and ${reason}`, offset);
}

/**
 * What finalising an unfinalised file takes, from its identification block's flags. Writer-specific (custom) flags or
 * flags this version of MDF does not define cannot be redone here: a 422 that says so. No flag at all (MDF 4.0 writers
 * set none) means every step the flags could ask for.
 */
export function finalisation(bin: BinaryView, firstDg: number): Finalisation {
  const custom = bin.u16(ID.customUnfinFlags);
  if (custom !== 0) throw notFinalised(`its writer-specific unfinalised flags 0x${custom.toString(16).padStart(4, '0')} name steps only that writer can redo`, ID.customUnfinFlags);
  const declared = bin.u16(ID.unfinFlags);
  if (declared & ~0x7f) throw notFinalised(`its unfinalised flags 0x${declared.toString(16).padStart(4, '0')} name steps MDF 4.3 does not define`, ID.unfinFlags);
  const flags = declared === 0 ? FLAGS.cycleCounters | FLAGS.dtLength | FLAGS.dlLists : declared & ~NOT_NEEDED;
  const starts = flags & FLAGS.dtLength ? blockStarts(bin, firstDg) : undefined;
  return {
    cycleCounts: (flags & (FLAGS.cycleCounters | FLAGS.dtLength)) !== 0,
    lenientLists: (flags & FLAGS.dlLists) !== 0,
    partialTail: true,
    ...(starts
      ? {
          lastDtEnd: (offset: number) => {
            // First known block after the ##DT: the data written after its header runs up to it.
            let lo = 0;
            let hi = starts.length;
            while (lo < hi) {
              const mid = (lo + hi) >>> 1;
              if (starts[mid] <= offset) lo = mid + 1;
              else hi = mid;
            }
            return lo < starts.length ? starts[lo] : bin.length;
          },
        }
      : {}),
  };
}

/** Offsets of the blocks the data could run into: data groups, channel groups, channels and their names, data blocks. */
function blockStarts(bin: BinaryView, firstDg: number): number[] {
  const starts: number[] = [];
  // A block and the blocks it links to; appended one by one (a block has as many links as the file says: spread into
  // push's arguments, 200,000 of them overflowed the stack).
  const add = (block: Mdf4Block) => {
    starts.push(block.offset);
    for (const link of block.links) if (link !== 0) starts.push(link);
  };
  // Each block once: chains that run into a block already walked (data groups naming one channel group, a chain
  // joining another) stop there, so the walk is as long as the file has blocks, not data groups times their chains
  // (3,000 groups on one chain of 3,000 channel groups took 5 s; the reader refuses the sharing afterwards).
  const walked = new Set<number>();
  const fresh = (block: Mdf4Block) => !walked.has(block.offset) && walked.add(block.offset) !== undefined;
  for (const dg of chain(bin, firstDg, 'DG')) {
    starts.push(dg.offset);
    for (const cg of chain(bin, dg.links[1] ?? 0, 'CG')) {
      if (!fresh(cg)) break;
      add(cg);
      for (const cn of chain(bin, cg.links[1] ?? 0, 'CN')) {
        if (!fresh(cn)) break;
        add(cn);
      }
    }
    const data = dg.links[2] ?? 0;
    if (data === 0) continue;
    const head = readBlock(bin, data);
    starts.push(head.offset);
    if (head.id !== 'HL' && head.id !== 'DL') continue;
    for (const dl of chain(bin, head.id === 'HL' ? head.links[0] ?? 0 : data, 'DL')) {
      if (!fresh(dl)) break;
      add(dl);
    }
  }
  return [...new Set(starts)].sort((a, b) => a - b);
}
