// The uploads module: upload slots (signed PUT addresses) for support tickets and returns, the
// storage drivers (local, s3) chosen by config, and the check that `imageUrls` are the customer's
// own uploads (table uploads). What other modules and app.ts use of it is exported here.
export { checkImageUrls, type SlotRequest, UploadService } from './service.ts'
export { Slot, SlotsBody } from './schemas.ts'
export { uploadRoutes } from './routes.ts'
export type { Storage } from './storage.ts'
export { createStorage, createUploadNames } from './storage-factory.ts'
