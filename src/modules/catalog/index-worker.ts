// A catalog's search index built in a worker thread (search.ts, for large catalogs on PostgreSQL):
// every product row read and all the garbage of the build stay in this thread's heap, which is
// freed when the thread ends, instead of growing the serving heap (docs/benchmarks.md, memory). The
// index goes back as one message whose typed arrays are transferred, not copied.
import { parentPort, workerData } from 'node:worker_threads'
import { openDatabase } from '../../db/client.ts'
import { buildIndex, packIndex } from './search-index.ts'

const { connectionString, catalogId } = workerData as { connectionString: string; catalogId: string }
const database = await openDatabase({ databaseUrl: connectionString, pgliteDir: null, poolSize: 1 })
try {
  const { packed, transfer } = packIndex(await buildIndex(database.db, catalogId))
  parentPort!.postMessage(packed, transfer)
} finally {
  await database.close()
}
