import type { BlockPair, BlocksService } from '../modules/safety/blocks.service';

// Blocks as a world without any: for unit tests of services that ask whom a block stands between, where no
// test makes one (the blocks' own behaviour is tested against the database and over sockets).
export const noBlocks: Pick<BlocksService, 'relatedTo' | 'relationsAmong' | 'blocksInvolving'> = {
  relatedTo: async () => new Set<number>(),
  relationsAmong: async () => new Map<number, Set<number>>(),
  blocksInvolving: async (): Promise<BlockPair[]> => [],
};
