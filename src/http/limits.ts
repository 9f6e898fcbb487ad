/**
 * Every limit varsetd puts on a request, in one place; docs/limits.md gives the reason for each
 * number. The limits of single attributes (a variable's value, a set's name, …) are rules of
 * their resources and live with them; the timeouts are settings (DEFAULT_TIMEOUTS in server.ts).
 */

/** Bytes of a request body (413 past it). A set of variables at the 256 KiB value limit fits. */
export const BODY_LIMIT = 5 * 1024 * 1024;

/** Bytes of the request line and headers together (431 past it): Node's own default, stated. */
export const HEADERS_LIMIT = 16 * 1024;

/** Characters of one path segment naming something (404 past it: no id or name is this long). */
export const PATH_SEGMENT_LIMIT = 100;

/** Arrays and objects nested in one another in a JSON body, the outermost one counting as 1 (400 past it). */
export const DEPTH_LIMIT = 32;

/** Members of one object in a JSON body (400 past it). */
export const OBJECT_MEMBERS_LIMIT = 1_000;

/** Elements of one array in a JSON body (400 past it). */
export const ARRAY_ELEMENTS_LIMIT = 100_000;

/** Values in a whole JSON body: every object, array, string, number, true, false and null (400 past it). */
export const VALUES_LIMIT = 500_000;

/** Characters (UTF-16 code units, escapes decoded) of a member name in a JSON body (400 past it). */
export const NAME_LENGTH_LIMIT = 256;

/** Characters (UTF-16 code units, escapes decoded) of a string value in a JSON body (422 at its pointer past it). */
export const STRING_LENGTH_LIMIT = 1024 * 1024;
