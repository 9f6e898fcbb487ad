import type { Static } from 'typebox';
import { API_PREFIX } from '../jsonapi/document.js';
import type { EffectiveTagBinding, TagBinding } from './model.js';
import type { EffectiveTagBindingResource, TagBindingResource } from './schemas.js';

export function serializeTagBinding(binding: TagBinding): Static<typeof TagBindingResource> {
  return {
    id: binding.id,
    type: 'tag-bindings',
    attributes: { key: binding.key, value: binding.value },
    links: { self: `${API_PREFIX}/tag-bindings/${binding.id}` },
  };
}

/** A binding in force; one inherited from the project says so in `links.inherited-from`, an own one has no links. */
export function serializeEffectiveTagBinding(binding: EffectiveTagBinding): Static<typeof EffectiveTagBindingResource> {
  return {
    id: binding.id,
    type: 'effective-tag-bindings',
    attributes: { key: binding.key, value: binding.value },
    ...(binding.inheritedFrom ? { links: { 'inherited-from': binding.inheritedFrom } } : {}),
  };
}
