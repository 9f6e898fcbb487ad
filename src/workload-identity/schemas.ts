import Type from 'typebox';
import { Resource } from '../jsonapi/schemas.js';
import { ALIAS_PATTERN, RUN_PHASES, TARGET_NAMES } from './model.js';

const literals = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));

export const MintTokenBody = Type.Object({
  phase: literals(RUN_PHASES),
  target: literals(TARGET_NAMES),
  alias: Type.Optional(
    Type.String({
      pattern: ALIAS_PATTERN.source,
      maxLength: 200,
      description:
        "the tag of one of the target's aliases (TFC_AWS_PROVIDER_AUTH_<TAG>); its default configuration without",
    }),
  ),
});

/** A run's workload identity token (varsetd's own resource): given once, to the run's own token, never kept. */
export const WorkloadIdentityTokenResource = Resource(
  'workload-identity-tokens',
  { token: Type.String(), audience: Type.String(), 'expires-at': Type.String() },
  undefined,
  null,
);

export const DiscoveryDocument = Type.Object({
  issuer: Type.String(),
  jwks_uri: Type.String(),
  response_types_supported: Type.Array(Type.String()),
  subject_types_supported: Type.Array(Type.String()),
  id_token_signing_alg_values_supported: Type.Array(Type.String()),
  claims_supported: Type.Array(Type.String()),
});

export const JwksDocument = Type.Object({
  keys: Type.Array(
    Type.Object({
      kty: Type.String(),
      n: Type.String(),
      e: Type.String(),
      kid: Type.String(),
      alg: Type.String(),
      use: Type.String(),
    }),
  ),
});
