# One organization and everything around variable sets in it, as a platform team would write
# it with the tfe provider. tfe-provider.test.ts, beside this folder, applies it to varsetd,
# checks that a plan then has nothing to do, changes two inputs, imports what can be imported
# into a fresh state, and destroys it.

terraform {
  required_providers {
    tfe = {
      source  = "hashicorp/tfe"
      version = "0.79.0"
    }
  }
}

variable "hostname" {
  description = "varsetd's host and port, e.g. 127.0.0.1:8443: the provider finds the API through https://HOSTNAME/.well-known/terraform.json."
  type        = string
}

variable "token" {
  type      = string
  sensitive = true
}

variable "organization" {
  type = string
}

# The second apply changes these two.
variable "shared_set_name" {
  type    = string
  default = "shared defaults"
}

variable "network_auto_apply" {
  type    = bool
  default = true
}

provider "tfe" {
  hostname = var.hostname
  token    = var.token
}

resource "tfe_organization" "org" {
  name                          = var.organization
  email                         = "platform@example.com"
  session_timeout_minutes       = 120
  session_remember_minutes      = 1440
  cost_estimation_enabled       = false
  assessments_enforced          = false
  allow_force_delete_workspaces = true
  # collaborator_auth_policy, speculative_plan_management_enabled, user_tokens_enabled and the
  # rest keep the provider's defaults.
}

resource "tfe_organization_default_settings" "org" {
  organization           = tfe_organization.org.name
  default_execution_mode = "remote"
}

resource "tfe_project" "platform" {
  organization = tfe_organization.org.name
  name         = "Platform Services"
  description  = "Shared network and tooling"
}

resource "tfe_workspace" "network" {
  organization      = tfe_organization.org.name
  name              = "network-prod"
  description       = "VPCs, subnets and peering"
  project_id        = tfe_project.platform.id
  auto_apply        = var.network_auto_apply
  execution_mode    = "remote"
  working_directory = "infra/network"
  terraform_version = "1.9.8"
  tag_names         = ["network", "prod"]
  queue_all_runs    = false
}

resource "tfe_workspace" "tools" {
  organization   = tfe_organization.org.name
  name           = "tools"
  execution_mode = "local"
  # Destroyed with DELETE (the organization allows it); the others through safe-delete.
  force_delete = true
  # In the organization's default project.
}

resource "tfe_workspace" "billing" {
  organization = tfe_organization.org.name
  name         = "billing"
  project_id   = tfe_project.platform.id
}

resource "tfe_workspace_settings" "billing" {
  workspace_id   = tfe_workspace.billing.id
  execution_mode = "local"
}

resource "tfe_team" "deployers" {
  organization = tfe_organization.org.name
  name         = "Platform Deployers"
  visibility   = "organization"
  organization_access {
    read_workspaces = true
    read_projects   = true
  }
}

resource "tfe_team" "auditors" {
  organization = tfe_organization.org.name
  name         = "auditors"
}

resource "tfe_team_access" "auditors_network" {
  team_id      = tfe_team.auditors.id
  workspace_id = tfe_workspace.network.id
  access       = "read"
}

resource "tfe_team_access" "deployers_network" {
  team_id      = tfe_team.deployers.id
  workspace_id = tfe_workspace.network.id
  permissions {
    runs              = "apply"
    variables         = "write"
    state_versions    = "read-outputs"
    sentinel_mocks    = "none"
    workspace_locking = true
    run_tasks         = false
    policy_overrides  = true
  }
}

resource "tfe_team_project_access" "deployers_platform" {
  team_id    = tfe_team.deployers.id
  project_id = tfe_project.platform.id
  access     = "maintain"
}

resource "tfe_team_project_access" "auditors_platform" {
  team_id    = tfe_team.auditors.id
  project_id = tfe_project.platform.id
  access     = "custom"
  project_access {
    settings      = "read"
    teams         = "none"
    variable_sets = "read"
  }
  workspace_access {
    runs           = "read"
    variables      = "read"
    state_versions = "read-outputs"
    sentinel_mocks = "none"
    create         = false
    locking        = false
    move           = false
    delete         = false
    run_tasks      = false
  }
}

# Without a description: the team's one token (POST /teams/:id/authentication-token).
resource "tfe_team_token" "deployers" {
  team_id = tfe_team.deployers.id
}

resource "tfe_organization_token" "org" {
  organization = tfe_organization.org.name
}

resource "tfe_variable_set" "shared" {
  organization = tfe_organization.org.name
  name         = var.shared_set_name
  description  = "Applies to every workspace"
  global       = true
}

resource "tfe_variable_set" "platform" {
  organization = tfe_organization.org.name
  name         = "platform credentials"
  description  = "Wins over workspace variables"
  priority     = true
}

resource "tfe_variable" "shared_region" {
  variable_set_id = tfe_variable_set.shared.id
  key             = "region"
  value           = "eu-west-1"
  category        = "terraform"
  description     = "Default region"
}

resource "tfe_variable" "shared_tags" {
  variable_set_id = tfe_variable_set.shared.id
  key             = "default_tags"
  value           = "{ team = \"platform\", cost_center = 42 }"
  category        = "terraform"
  hcl             = true
}

resource "tfe_variable" "platform_secret" {
  variable_set_id = tfe_variable_set.platform.id
  key             = "AWS_SECRET_ACCESS_KEY"
  value           = "not-a-real-secret"
  category        = "env"
  sensitive       = true
}

resource "tfe_variable" "network_cidr" {
  workspace_id = tfe_workspace.network.id
  key          = "cidr_blocks"
  value        = "[\"10.0.0.0/16\", \"10.1.0.0/16\"]"
  category     = "terraform"
  hcl          = true
  description  = "One per region"
}

resource "tfe_variable" "network_token" {
  workspace_id = tfe_workspace.network.id
  key          = "DEPLOY_TOKEN"
  value        = "also-not-real"
  category     = "env"
  sensitive    = true
}

resource "tfe_workspace_variable_set" "platform_network" {
  variable_set_id = tfe_variable_set.platform.id
  workspace_id    = tfe_workspace.network.id
}

resource "tfe_project_variable_set" "platform_platform" {
  variable_set_id = tfe_variable_set.platform.id
  project_id      = tfe_project.platform.id
}

data "tfe_organization" "org" {
  name = tfe_organization.org.name
}

data "tfe_project" "platform" {
  organization = tfe_organization.org.name
  name         = tfe_project.platform.name
  # Read once the workspaces are in the project, not as soon as the project exists.
  depends_on = [tfe_workspace.network, tfe_workspace.tools, tfe_workspace.billing]
}

data "tfe_workspace" "network" {
  organization = tfe_organization.org.name
  name         = tfe_workspace.network.name
}

data "tfe_variable_set" "platform" {
  organization = tfe_organization.org.name
  name         = tfe_variable_set.platform.name
  depends_on   = [tfe_workspace_variable_set.platform_network, tfe_project_variable_set.platform_platform, tfe_variable.platform_secret]
}

data "tfe_variables" "network" {
  workspace_id = tfe_workspace.network.id
  depends_on   = [tfe_variable.network_cidr, tfe_variable.network_token]
}

data "tfe_variables" "shared" {
  variable_set_id = tfe_variable_set.shared.id
  depends_on      = [tfe_variable.shared_region, tfe_variable.shared_tags]
}

data "tfe_workspace_ids" "all" {
  organization = tfe_organization.org.name
  names        = ["*"]
  depends_on   = [tfe_workspace.network, tfe_workspace.tools, tfe_workspace.billing]
}

# What the data sources read back, for the test to compare with what the resources wrote.
output "read_back" {
  value = {
    organization_email      = data.tfe_organization.org.email
    default_project_id      = data.tfe_organization.org.default_project_id
    project_id              = data.tfe_project.platform.id
    project_workspace_ids   = sort(tolist(data.tfe_project.platform.workspace_ids))
    network_id              = data.tfe_workspace.network.id
    network_project_id      = data.tfe_workspace.network.project_id
    network_auto_apply      = data.tfe_workspace.network.auto_apply
    network_execution_mode  = data.tfe_workspace.network.execution_mode
    network_working_dir     = data.tfe_workspace.network.working_directory
    network_tf_version      = data.tfe_workspace.network.terraform_version
    network_tag_names       = sort(tolist(data.tfe_workspace.network.tag_names))
    platform_set_id         = data.tfe_variable_set.platform.id
    platform_set_priority   = data.tfe_variable_set.platform.priority
    platform_set_workspaces = sort(tolist(data.tfe_variable_set.platform.workspace_ids))
    platform_set_projects   = sort(tolist(data.tfe_variable_set.platform.project_ids))
    platform_set_variables  = sort(tolist(data.tfe_variable_set.platform.variable_ids))
    network_variables       = { for v in data.tfe_variables.network.variables : v.name => { category = v.category, hcl = v.hcl, sensitive = v.sensitive, value = v.value } }
    shared_variables        = { for v in data.tfe_variables.shared.variables : v.name => { category = v.category, hcl = v.hcl, sensitive = v.sensitive, value = v.value } }
    workspace_ids           = data.tfe_workspace_ids.all.ids
  }
  sensitive = true
}

output "created" {
  value = {
    default_project_id = tfe_organization.org.default_project_id
    project_id         = tfe_project.platform.id
    network_id         = tfe_workspace.network.id
    tools_id           = tfe_workspace.tools.id
    tools_project_id   = tfe_workspace.tools.project_id
    billing_id         = tfe_workspace.billing.id
    deployers_id       = tfe_team.deployers.id
    auditors_id        = tfe_team.auditors.id
    shared_set_id      = tfe_variable_set.shared.id
    platform_set_id    = tfe_variable_set.platform.id
    platform_secret_id = tfe_variable.platform_secret.id
    team_token         = tfe_team_token.deployers.token
    organization_token = tfe_organization_token.org.token
  }
  sensitive = true
}
