// One process of several opening fresh SQLite files in step: for round r it waits until `start + r * every` ms,
// then opens `<dir>/<r>.db` as the store does and closes it. Prints the rounds that failed, with their errors.
import { join } from 'node:path';
import { connectSqlite } from '../../../../server/src/store/sqlite/connect.js';

const [dir, rounds, start, every] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5])];
const failed: { round: number; code: string }[] = [];
for (let round = 0; round < rounds; round++) {
  while (Date.now() < start + round * every) {
    // Spins: a timer's lateness would spread the processes' opens apart.
  }
  try {
    connectSqlite(join(dir, `${round}.db`)).close();
  } catch (err) {
    failed.push({ round, code: (err as { code?: string }).code ?? String(err) });
  }
}
process.stdout.write(JSON.stringify(failed));
