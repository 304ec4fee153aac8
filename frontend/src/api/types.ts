import type { components } from './schema.gen';

/**
 * The REST and realtime contract's types, generated from docs/openapi.json into schema.gen.ts
 * (`npm run gen:api`; `npm run check:api`, run by `npm run lint`, fails when it is stale). The
 * `*Api.ts` files name the schemas they use as aliases of these; no response or request shape is
 * written by hand.
 */
export type Schemas = components['schemas'];
export type Schema<Name extends keyof Schemas> = Schemas[Name];

/** The `{"error": {"message", "code"}}` body of every gateway error. */
export type ErrorBody = Schema<'ErrorBody'>;

/** Every event the realtime socket delivers, as `{type, data}` (the event's name and its payload). */
export type RealtimeEvent = Schema<'RealtimeEvent'>;
export type RealtimeEventName = RealtimeEvent['type'];
/** The payload of one realtime event. */
export type RealtimePayload<Name extends RealtimeEventName> = Extract<RealtimeEvent, { type: Name }>['data'];
