/** Terraform variables as a `*.auto.tfvars` file: HCL native syntax, one attribute per variable. */

export interface TerraformVariable {
  key: string;
  value: string;
  /** The value is an HCL expression, written as it is; otherwise it is a string. */
  hcl: boolean;
}

const IDENTIFIER = /^[\p{ID_Start}_][\p{ID_Continue}-]*$/u;

/** A Terraform variable name must be an HCL identifier to appear in a tfvars file. */
export function isIdentifier(key: string): boolean {
  return IDENTIFIER.test(key);
}

/**
 * A string as an HCL quoted template that reads back exactly: quotes, backslashes and
 * control characters escaped, and the template introducers `${` and `%{` doubled so that
 * Terraform takes them literally. Everything else (any Unicode) is written as it is.
 */
export function hclString(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    const next = value[i + 1];
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if ((char === '$' || char === '%') && next === '{') out += char + char;
    else if (char < ' ' || char === '\x7f') out += `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

export function renderTfvars(variables: readonly TerraformVariable[]): string {
  return variables.map(({ key, value, hcl }) => `${key} = ${hcl ? value : hclString(value)}\n`).join('');
}
