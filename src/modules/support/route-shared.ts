// What the back office's and the partner server's support route files share: a ticket as an agent
// sees it, with the customer and the conversation.
import { Type } from 'typebox'
import { Message, Ticket } from './schemas.ts'

export const AdminTicket = Type.Object({ ...Ticket.properties, userId: Type.String(), messages: Type.Array(Message) })
