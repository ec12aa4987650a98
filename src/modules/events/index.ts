// Partner events. A state change records its event with recordEvent inside its own transaction:
// both commit or neither does. Delivery to partners is the dispatcher's job.
export { EVENT_TYPES, type EventType, eventWebhooks } from './catalogue.ts'
export { eventInsert, eventInsertSql, eventsInsertFromSql, type NewEvent, recordEvent } from './record.ts'
export { Dispatcher } from './dispatcher.ts'
export { EventAdminService } from './admin-service.ts'
export { eventAdminRoutes } from './admin-routes.ts'
