import { z } from "zod";

/**
 * A moment in time: a Date in the code, an RFC 3339 string in JSON (Date's own toJSON), read
 * back into a Date. The same schema checks what the server holds and what a client receives,
 * so no client keeps a copy of a schema with its dates as strings. The OpenAPI document shows
 * it as a `date-time` string.
 */
export const instantSchema = z.coerce.date<Date | string>("must be a date and time (RFC 3339)");
