import { z } from "zod";

// Timeline events and audit entries are numbered by the database (a PostgreSQL bigint). Their ids
// travel as decimal text — SSE ids, Last-Event-ID, timeline cursors — so that a number past what
// JavaScript holds exactly is never rounded. Text that is not such a number, or is one larger
// than a bigint holds, is refused where it comes in, before it reaches a query.

/** The largest id a PostgreSQL bigint holds. */
export const MAX_SERIAL_ID = 9_223_372_036_854_775_807n;

/** Whether `text` is an id the database could have handed out: decimal digits, within a bigint. */
export function isSerialId(text: string): boolean {
  return /^\d{1,19}$/.test(text) && BigInt(text) <= MAX_SERIAL_ID;
}

/** A query parameter or header that carries an event id. */
export const serialIdSchema = (message: string) => z.string().refine(isSerialId, message);
