import { invalidAttribute, unprocessable, type ApiError } from './errors.js';
import type { ResourceIdentifier } from './document.js';

/**
 * Readers for JSON:API request bodies. Each one checks the shape and type of what it
 * reads and answers a 422 with a JSON pointer to the offending member, so no service
 * ever sees a value of the wrong type.
 */

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface NameRules {
  maxLength: number;
  pattern: RegExp;
  /** What the pattern allows, for the error detail: `letters, numbers, "-" and "_"`. */
  allowed: string;
}

/** The primary resource of a request body: `data` with the expected `type`. */
export class ResourceInput {
  private constructor(
    readonly id: unknown,
    readonly attributes: Json,
    readonly relationships: Json,
    private readonly pointer: string,
  ) {}

  /** Reads `body.data` (or the object at `pointer`), which must be a resource of `type`. */
  static read(body: unknown, type: string, pointer = '/data'): ResourceInput {
    const data = pointer === '/data' ? (isObject(body) ? body.data : undefined) : body;
    if (!isObject(data)) throw unprocessable(`the request body must be a JSON:API document whose data is a ${type} resource`, pointer);
    return ResourceInput.fromObject(data, type, pointer);
  }

  static fromObject(data: unknown, type: string, pointer: string): ResourceInput {
    if (!isObject(data)) throw unprocessable(`expected a ${type} resource object`, pointer);
    if (data.type !== type) throw invalidAttribute(`type must be "${type}"`, `${pointer}/type`);
    const attributes = data.attributes ?? {};
    if (!isObject(attributes)) throw invalidAttribute('attributes must be an object', `${pointer}/attributes`);
    const relationships = data.relationships ?? {};
    if (!isObject(relationships)) throw invalidAttribute('relationships must be an object', `${pointer}/relationships`);
    return new ResourceInput(data.id, attributes, relationships, pointer);
  }

  has(name: string): boolean {
    return this.attributes[name] !== undefined;
  }

  attributePointer(name: string): string {
    return `${this.pointer}/attributes/${name}`;
  }

  /** A string attribute; undefined when absent or null. */
  string(name: string, rules: { maxLength?: number; nonEmpty?: boolean; trim?: boolean } = {}): string | undefined {
    const value = this.attributes[name];
    if (value === undefined || value === null) return undefined;
    const pointer = this.attributePointer(name);
    if (typeof value !== 'string') throw invalidAttribute(`${name} must be a string`, pointer);
    const text = rules.trim ? value.trim() : value;
    if (rules.nonEmpty && text === '') throw invalidAttribute(`${name} can't be blank`, pointer);
    if (rules.maxLength !== undefined && [...text].length > rules.maxLength) {
      throw invalidAttribute(`${name} is too long (maximum is ${rules.maxLength} characters)`, pointer);
    }
    return text;
  }

  requiredString(name: string, rules: { maxLength?: number; trim?: boolean } = {}): string {
    const value = this.string(name, { ...rules, nonEmpty: true });
    if (value === undefined) throw invalidAttribute(`${name} can't be blank`, this.attributePointer(name));
    return value;
  }

  /**
   * The `name` attribute of a named resource: required on create, optional on update, never
   * blank, at most `rules.maxLength` characters, matching `rules.pattern` (described by `rules.allowed`).
   */
  name(required: boolean, rules: NameRules): string | undefined {
    const name = required ? this.requiredString('name', { maxLength: rules.maxLength }) : this.string('name', { maxLength: rules.maxLength, nonEmpty: true });
    if (name !== undefined && !rules.pattern.test(name)) {
      throw invalidAttribute(`name may only contain ${rules.allowed}`, this.attributePointer('name'));
    }
    return name;
  }

  /** The 422 for a name another resource of the same kind already has. */
  nameTaken(): ApiError {
    return invalidAttribute('Name has already been taken', this.attributePointer('name'));
  }

  boolean(name: string): boolean | undefined {
    const value = this.attributes[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') throw invalidAttribute(`${name} must be true or false`, this.attributePointer(name));
    return value;
  }

  /** The raw value of a relationship's `data` member, or undefined when the relationship is absent. */
  relationshipData(name: string): { data: unknown; pointer: string } | undefined {
    const relationship = this.relationships[name];
    if (relationship === undefined || relationship === null) return undefined;
    const pointer = `${this.pointer}/relationships/${name}`;
    if (!isObject(relationship) || !('data' in relationship)) throw invalidAttribute(`${name} must be an object with a data member`, pointer);
    return { data: relationship.data, pointer: `${pointer}/data` };
  }

  /** A to-many relationship of identifiers; undefined when absent, so updates can tell "leave" from "clear". */
  identifiers(name: string, type: string): string[] | undefined {
    const found = this.relationshipData(name);
    return found === undefined ? undefined : readIdentifiers(found.data, type, found.pointer);
  }

  /** A to-one relationship's id; undefined when absent or null. */
  identifier(name: string, type: string): string | undefined {
    const found = this.relationshipData(name);
    if (found === undefined || found.data === null) return undefined;
    return readIdentifier(found.data, type, found.pointer);
  }
}

/** `[{type, id}, …]` → unique ids, in the order given. */
export function readIdentifiers(data: unknown, type: string, pointer: string): string[] {
  if (!Array.isArray(data)) throw invalidAttribute(`expected an array of ${type} identifiers`, pointer);
  const ids = data.map((item, i) => readIdentifier(item, type, `${pointer}/${i}`));
  return [...new Set(ids)];
}

export function readIdentifier(data: unknown, type: string, pointer: string): string {
  if (!isObject(data)) throw invalidAttribute(`expected a ${type} identifier {type, id}`, pointer);
  if (data.type !== type) throw invalidAttribute(`type must be "${type}"`, `${pointer}/type`);
  if (typeof data.id !== 'string' || data.id === '') throw invalidAttribute('id must be a non-empty string', `${pointer}/id`);
  return data.id;
}

/** The `data` array of an assignment body (`{data: [{type, id}, …]}`). */
export function readIdentifierList(body: unknown, type: string): string[] {
  if (!isObject(body)) throw unprocessable(`the request body must be a JSON:API document whose data is an array of ${type} identifiers`, '/data');
  return readIdentifiers(body.data, type, '/data');
}

export type { ResourceIdentifier };
