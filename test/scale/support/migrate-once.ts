// One process migrating the SQLite file named by SVC_DATA_DIR, as a starting service does. Used to start several
// at once on one fresh file.
import { join } from 'node:path';
import { migrate } from '../../../server/src/store/store.js';
import { openStore } from '../../../server/src/store/open-store.js';

const store = openStore({ sqlitePath: join(process.env.SVC_DATA_DIR!, 'svc.db') });
await migrate(store);
await store.close();
process.stdout.write('migrated');
