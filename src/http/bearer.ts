/** The token of an `Authorization: Bearer <token>` header, or undefined for any other header or none. */
export function bearerToken(header: string | undefined): string | undefined {
  return header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
}
