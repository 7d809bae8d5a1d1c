// The one module that imports the generated Prisma client; everything else in lib/store
// gets its types from here and nothing outside lib/store sees Prisma at all.
import { PrismaClient, Prisma } from "../../generated/prisma/client.ts";
import type { SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";

export { Prisma };
export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;

export function createPrismaClient(adapter: SqlDriverAdapterFactory): Db {
  return new PrismaClient({ adapter });
}

/** True if the error is Prisma's unique-constraint violation (P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/** True if the error is Prisma's "record to update/delete not found" (P2025). */
export function isNotFound(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2025";
}

export function toJson(value: unknown): Prisma.InputJsonValue {
  return value as Prisma.InputJsonValue;
}
