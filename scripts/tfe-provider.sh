#!/usr/bin/env bash
# Prepares what the tfe provider end-to-end test runs, building each piece once into .cache/
# (git-ignored) from the Go module proxy, and prints it as one line of JSON:
#   {"terraform": PATH, "mirror": PATH, "providerVersion": "0.79.0"}
# - the tfe provider, laid out as a Terraform filesystem mirror for
#   registry.terraform.io/hashicorp/tfe, since the provider registry cannot be reached;
# - Terraform 1.5.7. The provider serves plugin protocol 6 through a mux that carries its older
#   resources on protocol 6 too; Terraform reads the flag those resources need there
#   (legacy_type_system, protocol 6.2) from its 1.1 series on, so the 1.0.3 of the `varsetd exec`
#   tests refuses their plans. 1.5.7 is the last release under the MPL and builds from its
#   module alone.
set -euo pipefail
cd "$(dirname "$0")/.."

readonly PROVIDER_VERSION=0.79.0
readonly TERRAFORM_VERSION=1.5.7

case "$(uname -s)/$(uname -m)" in
  Linux/x86_64) platform=linux_amd64 ;;
  Linux/aarch64) platform=linux_arm64 ;;
  Darwin/x86_64) platform=darwin_amd64 ;;
  Darwin/arm64) platform=darwin_arm64 ;;
  *) echo "tfe-provider.sh: no Terraform platform name for $(uname -s)/$(uname -m)" >&2; exit 1 ;;
esac

mirror="$(pwd)/.cache/tfe-provider/mirror"
bash scripts/go-program.sh github.com/hashicorp/terraform-provider-tfe "v$PROVIDER_VERSION" \
  "$mirror/registry.terraform.io/hashicorp/tfe/$PROVIDER_VERSION/$platform/terraform-provider-tfe_v$PROVIDER_VERSION" >/dev/null
terraform=$(bash scripts/go-program.sh github.com/hashicorp/terraform "v$TERRAFORM_VERSION" ".cache/tfe-provider/terraform-$TERRAFORM_VERSION")
# The whole answer first: grep -q closing the pipe early would fail the check under pipefail.
answer=$(CHECKPOINT_DISABLE=1 "$terraform" version 2>/dev/null)
grep -q "^Terraform v$TERRAFORM_VERSION\$" <<<"$answer" || { echo "tfe-provider.sh: $terraform is not Terraform $TERRAFORM_VERSION" >&2; exit 1; }

printf '{"terraform": "%s", "mirror": "%s", "providerVersion": "%s"}\n' "$terraform" "$mirror" "$PROVIDER_VERSION"
