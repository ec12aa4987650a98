// The configured storage driver.
import { createHmac } from 'node:crypto'
import type { Config } from '../../config.ts'
import { createLocalStorage, uploadsDir } from './local-storage.ts'
import { createObjectNames, type ObjectNames } from './object-names.ts'
import { createS3Storage } from './s3-storage.ts'
import type { Storage } from './storage.ts'

export function createStorage(config: Config): Storage {
  if (config.storageDriver === 's3' && config.s3) return createS3Storage(config.s3)
  // Upload addresses are signed with a key derived from AUTH_SECRET: valid on every node.
  const secret = createHmac('sha256', config.authSecret).update('local-uploads').digest('hex')
  return createLocalStorage({ dir: uploadsDir(config.dataDir), secret, publicBaseUrl: config.publicBaseUrl })
}

/** The tags of object names (object-names.ts), under a key of their own derived from AUTH_SECRET. */
export function createUploadNames(config: Config): ObjectNames {
  return createObjectNames(createHmac('sha256', config.authSecret).update('upload-object-names').digest())
}
