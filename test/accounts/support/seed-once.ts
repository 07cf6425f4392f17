// One process seeding the dev account of the store named by SVC_DATA_DIR, as a starting service does; prints
// the seed as JSON. Used to start several seeders at once on one SQLite file.
import { seedDevAccount } from '../../../server/src/accounts/dev-seed.js';
import { loadConfig } from '../../../server/src/config.js';
import { storeFor } from '../../../server/src/store/open-store.js';
import { migrate } from '../../../server/src/store/store.js';

const config = loadConfig();
const store = storeFor(config);
await migrate(store);
const seed = await seedDevAccount(store, config, Date.now());
await store.close();
process.stdout.write(JSON.stringify({ accountId: seed.accountId, created: seed.created, apiKey: seed.apiKey }));
