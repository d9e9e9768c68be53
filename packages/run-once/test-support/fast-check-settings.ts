/**
 * fast-check runs with a fixed seed, so that CI is repeatable; FC_SEED and
 * FC_RUNS explore further (`FC_RUNS=500 FC_SEED=$RANDOM npx vitest run ...`).
 */
export function fastCheckSettings(defaultRuns: number) {
  return {
    seed: Number(process.env.FC_SEED ?? 20_261_202),
    numRuns: Number(process.env.FC_RUNS ?? defaultRuns),
  };
}
