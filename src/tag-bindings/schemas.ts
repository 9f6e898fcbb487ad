import Type from 'typebox';
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
