import { emptyResults, type Results } from './results';

/** A made-up result for the report's tests: the runner's start on a test machine, then `over`. */
export const testResults = (over: Partial<Results> = {}): Results => ({
  ...emptyResults(
    {
      startedAt: '2026-11-21T10:14:00.000Z',
      quick: false,
      machine: { cpu: 'test', cores: 2, memoryGiB: 8, node: 'v20', os: 'Linux', fdLimit: '20000' },
      git: { commit: 'abc', dirty: false },
      web: null,
    },
    [0, 0, 0],
  ),
  ...over,
});
