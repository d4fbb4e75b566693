import { createApp } from './app'
import { ConfigError, readConfig } from './config'
import { startDailyAnchor } from './domains/audit/anchor'
import { startEventChainer } from './domains/events/chainer'
import { startFlowWorker } from './domains/flows/queue'
import { endLiveStreams } from './live/hub'
import { startSweeps } from './sweeps'
import { prepareServices } from './start'

const log = (line: string) => console.log(`[mes] ${line}`)

try {
  const config = readConfig()
  const { svc, database } = await prepareServices(config, log)
  const app = createApp(svc)
  // Links committed events into the event chain, one instance at a time (docs/audit.md).
  startEventChainer(svc.db)
  // The chain's head written outside the database once a day (file store, CHAIN_ANCHORED event).
  const stopAnchor = startDailyAnchor(svc, log)
  // Offline jobs are force-paused, overdue issues escalate, old idempotency keys expire (safe with several instances).
  const stopSweeps = startSweeps(svc, { log, everyMs: config.sweepEveryMs })
  // Outbound webhook deliveries of the data flows (pg-boss on the same database, PGlite included).
  const flows = await startFlowWorker(svc, { log })
  const server = Bun.serve({ port: config.port, fetch: app.fetch, maxRequestBodySize: 64 * 1024 * 1024 })
  log(`listening on http://localhost:${server.port} (API at ${config.apiPrefix}, reference at ${config.apiPrefix}/docs)`)
  const shutdown = async () => {
    log('shutting down')
    // Open live streams never end by themselves: end them (clients reconnect with their last event id).
    endLiveStreams(svc.db)
    await server.stop()
    await stopSweeps()
    await stopAnchor()
    await flows.stop()
    await database.close()
    process.exit(0)
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(`[mes] ${e.message}`)
    process.exit(2)
  }
  throw e
}
