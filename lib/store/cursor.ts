// Cursors are opaque to clients: a base64url token, so nobody builds on what is inside.

export class InvalidCursorError extends Error {
  constructor() {
    super("The cursor is not one this server handed out. Start again without a cursor.");
    this.name = "InvalidCursorError";
  }
}

export function encodeCursor(key: string): string {
  return Buffer.from(key, "utf8").toString("base64url");
}

/** The key inside a cursor, if it has the expected shape; otherwise InvalidCursorError. */
export function decodeCursor(cursor: string, shape: RegExp | ((key: string) => boolean)): string {
  const key = Buffer.from(cursor, "base64url").toString("utf8");
  if (!(typeof shape === "function" ? shape(key) : shape.test(key))) throw new InvalidCursorError();
  return key;
}

export const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
