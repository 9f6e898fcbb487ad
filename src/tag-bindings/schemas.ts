import Type from 'typebox';
import { badQueryParameter } from '../jsonapi/errors.js';
import { single, type Query } from '../jsonapi/query.js';
import { Maybe, Resource } from '../jsonapi/schemas.js';

/** One binding of a request: `{type: "tag-bindings", attributes: {key, value}}`; other members are ignored. */
export const TagBindingInput = Type.Object({
  type: Type.Literal('tag-bindings'),
  attributes: Type.Object({ key: Type.String(), value: Maybe(Type.String()) }),
});

/** The `tag-bindings` relationship of a create or update body: the owner's bindings, replacing the ones it had. */
export const TagBindingsRelationship = Type.Object({ data: Type.Array(TagBindingInput) });

/** `PATCH …/tag-bindings`: bindings to add, or whose value to change. */
export const TagBindingsBody = Type.Object({ data: Type.Array(TagBindingInput) });

export const TagBindingResource = Resource('tag-bindings', { key: Type.String(), value: Type.String() });

export const EffectiveTagBindingResource = Resource(
  'effective-tag-bindings',
  { key: Type.String(), value: Type.String() },
  undefined,
  Type.Optional(Type.Object({ 'inherited-from': Type.Object({ id: Type.String(), type: Type.Literal('projects') }) })),
);

/** The `tag-bindings` relationship of a response: a link to the owner's bindings. */
export const TagBindingsLink = Type.Object({ links: Type.Object({ related: Type.String() }) });

/** The `effective-tag-bindings` relationship of a response; linkage only when `include=effective_tag_bindings` put the bindings in `included`. */
export const EffectiveTagBindingsRelationship = Type.Object({
  data: Type.Optional(Type.Array(Type.Object({ id: Type.String(), type: Type.Literal('effective-tag-bindings') }))),
  links: Type.Object({ related: Type.String() }),
});

/** `filter[tagged][N][key]` and `filter[tagged][N][value]`, N from 0, as lists of workspaces and projects take them. */
export const TAGGED_FILTER = /^filter\[tagged\]\[(\d+)\]\[(key|value)\]$/;

/**
 * `TagBindings`: go-tfe's list options for workspaces and projects carry their tag binding filter in
 * a field its query encoder knows nothing about, so besides `filter[tagged][N][…]` it also sends
 * that field under its Go name, as the text of each Go value. HCP Terraform ignores it; so do
 * these lists, which take it (and read only `filter[tagged]`) rather than answer 400.
 */
export const GoTfeTagBindingsQuery = {
  TagBindings: Type.Optional(
    Type.Unsafe<string | string[]>({
      description: "go-tfe's second encoding of the filter[tagged] parameters it sends with it; never read",
    }),
  ),
};

/** The bindings a list's `filter[tagged]` parameters ask for (value '' for any value); each needs its key. */
export function parseTaggedFilter(query: Query): { key: string; value: string }[] {
  const tagged = new Map<number, { key: string; value: string }>();
  for (const name of Object.keys(query)) {
    const match = TAGGED_FILTER.exec(name);
    if (!match) continue;
    const index = Number(match[1]);
    const entry = tagged.get(index) ?? { key: '', value: '' };
    entry[match[2] as 'key' | 'value'] = single(query, name) ?? '';
    tagged.set(index, entry);
  }
  for (const [index, { key }] of tagged) {
    if (key === '')
      throw badQueryParameter(`filter[tagged][${index}][key]`, `filter[tagged][${index}][key] is required`);
  }
  return [...tagged.values()];
}
