// The two ways a command fails: the invocation is wrong (exit 2, with a hint to --help), or the invocation is
// fine but the store says no (exit 1): an unknown account, a number the account lacks, a key already revoked.
export class UsageError extends Error {
  readonly exitCode = 2;
}

export class CliFailure extends Error {
  readonly exitCode = 1;
}
