// Resolves once `done` holds, looking every `everyMs`; fails after `ms`, naming what it waited for.
export async function until(what: string, done: () => boolean | Promise<boolean>, ms = 5000, everyMs = 10): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
