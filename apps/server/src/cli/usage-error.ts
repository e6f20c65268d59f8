/** A command line the CLI cannot run: its message is printed alone, and the exit code is 2. */
export class UsageError extends Error {}
